// The eddy dashboard: a page per hash route (#/, #/jobs, #/jobs/<id>, #/workers) drawn from the
// coordinator's REST API and redrawn every two seconds. No libraries.
"use strict";

const REFRESH_MS = 2000;
let timer = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

async function getJson(path) {
  const r = await fetch(path, { cache: "no-store" });
  const body = await r.json();
  if (!r.ok) throw new Error((body.errors || [r.statusText]).join("; "));
  return body;
}

function num(v) { return Number(v || 0); }
function fmtCount(v) { return num(v).toLocaleString("en-US"); }
function fmtBytes(v) {
  let n = num(v);
  for (const unit of ["B", "KiB", "MiB", "GiB"]) {
    if (n < 1024 || unit === "GiB") return (unit === "B" ? n : n.toFixed(1)) + " " + unit;
    n /= 1024;
  }
}
function fmtDuration(ms) {
  let s = Math.floor(num(ms) / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  s %= 60;
  return (h ? h + "h " : "") + (h || m ? m + "m " : "") + s + "s";
}
// An event-time watermark: "-" before the first, "end of input" once the inputs ended (the
// largest watermark), else the UTC time.
function fmtWatermark(ms) {
  if (ms === undefined) return "-";
  const n = num(ms);
  if (n >= 253402300800000) return "end of input";  // past year 9999
  if (n <= -62135596800000) return "-";
  return new Date(n).toISOString().replace("T", " ").slice(0, 19);
}
function fmtTime(ms) { return num(ms) ? new Date(num(ms)).toLocaleString() : "-"; }
function state(s) { return el("span", { class: "state state-" + s }, s); }

function table(headers, rows) {
  const t = el("table", {}, el("tr", {}, ...headers.map((h) => el("th", {}, h))));
  for (const row of rows) {
    t.append(el("tr", {}, ...row.map((c) =>
      typeof c === "number" ? el("td", { class: "num" }, fmtCount(c)) : el("td", {}, c))));
  }
  return t;
}

function card(label, value) {
  return el("div", { class: "card" }, el("div", { class: "value" }, value),
            el("div", { class: "label" }, label));
}

function jobLink(job) { return el("a", { href: "#/jobs/" + job.jid }, job.name || job.jid); }

function jobsTable(jobs) {
  return table(["Job", "ID", "Status", "Started", "Duration", "Restarts"],
               jobs.slice().reverse().map((j) => [jobLink(j), j.jid, state(j.state),
                                                   fmtTime(j.start_time), fmtDuration(j.duration),
                                                   num(j.restarts)]));
}

async function overviewPage() {
  const [o, jobs] = await Promise.all([getJson("/overview"), getJson("/jobs")]);
  return [el("h2", {}, "Cluster overview"),
          el("div", { class: "cards", id: "overview-cards" },
             card("Workers", o.workers), card("Slots total", o.slots_total),
             card("Slots available", o.slots_available), card("Jobs running", o.jobs_running),
             card("Jobs finished", o.jobs_finished), card("Jobs cancelled", o.jobs_cancelled),
             card("Jobs failed", o.jobs_failed)),
          el("h3", {}, "Jobs"), jobsTable(jobs.jobs)];
}

async function jobsPage() {
  const jobs = await getJson("/jobs");
  return [el("h2", {}, "Jobs"), jobsTable(jobs.jobs)];
}

async function workersPage() {
  const w = await getJson("/workers");
  return [el("h2", {}, "Workers"),
          table(["Worker", "Address", "Slots", "Free slots", "Running subtasks", "Last heartbeat"],
                w.workers.map((x) => [x.worker_id, x.address, x.slots, x.free_slots,
                                      x.running_subtasks,
                                      fmtDuration(x.last_heartbeat_age_ms) + " ago"]))];
}

// Per vertex, since the previous refresh of the same job: rows read per second and the share of
// its subtasks' time spent back-pressured (Flink's backPressuredTimeMsPerSecond / 1000); on the
// first look the share since the subtasks started, and no rate.
let previous = { jid: null, vertices: {} };

function activity(job) {
  const now = num(job.now);
  const out = {};
  const same = previous.jid === job.jid;
  const next = { jid: job.jid, vertices: {} };
  for (const v of job.vertices) {
    const sample = { at: now, records: num(v.records_in), bp: num(v.back_pressured_ms),
                     busy: num(v.busy_ms), idle: num(v.idle_ms) };
    const before = same ? previous.vertices[v.id] : undefined;
    // Before a second look, the share over the subtasks' whole run.
    const since = before ? before.sample : { at: now, records: 0, bp: 0, busy: 0, idle: 0 };
    const bp = sample.bp - since.bp;
    const total = bp + (sample.busy - since.busy) + (sample.idle - since.idle);
    if (before && total === 0) {
      // No heartbeat since the last look: keep what it showed, and its baseline.
      out[v.id] = before.shown;
      next.vertices[v.id] = before;
      continue;
    }
    const seconds = (sample.at - since.at) / 1000;
    const a = {
      rate: before && seconds > 0 ? Math.max(0, (sample.records - since.records) / seconds) : null,
      backPressure: total > 0 ? Math.min(1, Math.max(0, bp / total)) : null,
    };
    out[v.id] = a;
    next.vertices[v.id] = { sample, shown: a };
  }
  previous = next;
  return out;
}

function backPressureClass(share) {
  if (share === null) return "";
  return share >= 0.5 ? " bp-high" : share >= 0.1 ? " bp-low" : " bp-ok";
}

// The job graph: vertices in columns by their distance from the sources, arrows for exchanges.
function dag(job, act) {
  const W = 250, H = 110, GAPX = 90, GAPY = 28, PAD = 20;
  const depth = {};
  const byId = {};
  for (const v of job.vertices) byId[v.id] = v;
  const depthOf = (v) => {
    if (depth[v.id] !== undefined) return depth[v.id];
    depth[v.id] = 0;
    let d = 0;
    for (const i of v.inputs || []) if (byId[i]) d = Math.max(d, depthOf(byId[i]) + 1);
    return (depth[v.id] = d);
  };
  const columns = [];
  for (const v of job.vertices) (columns[depthOf(v)] = columns[depthOf(v)] || []).push(v);
  const pos = {};
  let maxRows = 1;
  columns.forEach((col, c) => {
    maxRows = Math.max(maxRows, col.length);
    col.forEach((v, r) => { pos[v.id] = { x: PAD + c * (W + GAPX), y: PAD + r * (H + GAPY) }; });
  });
  const width = PAD * 2 + columns.length * W + (columns.length - 1) * GAPX;
  const height = PAD * 2 + maxRows * H + (maxRows - 1) * GAPY;
  const root = svg("svg", { class: "dag", id: "job-dag", width, height,
                            viewBox: `0 0 ${width} ${height}` });
  root.append(svg("defs", {},
                  svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5,
                                  markerWidth: 8, markerHeight: 8, orient: "auto-start-reverse" },
                      svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#5b6b7c" }))));
  for (const v of job.vertices) {
    (v.inputs || []).forEach((input, k) => {
      const from = pos[input], to = pos[v.id];
      if (!from || !to) return;
      const x1 = from.x + W, y1 = from.y + H / 2, x2 = to.x, y2 = to.y + H / 2;
      root.append(svg("path", { class: "edge", "data-from": input, "data-to": v.id,
                                d: `M ${x1} ${y1} C ${x1 + GAPX / 2} ${y1}, ${x2 - GAPX / 2} ${y2}, ${x2} ${y2}` }));
      root.append(svg("text", { class: "edge-label", x: (x1 + x2) / 2 - 24, y: (y1 + y2) / 2 - 6 },
                      (v.ship_strategies || [])[k] || ""));
    });
  }
  const running = job.state === "RUNNING";
  for (const v of job.vertices) {
    const p = pos[v.id];
    const a = act[v.id] || { rate: null, backPressure: null };
    const rate = a.rate === null ? "-" : fmtCount(Math.round(a.rate));
    const cls = "vertex" + (running ? backPressureClass(a.backPressure) : "");
    const name = v.name.length > 32 ? v.name.slice(0, 31) + "…" : v.name;
    const watermark = fmtWatermark(v.input_watermark_ms);
    const pressure = a.backPressure === null ? "-" : Math.round(a.backPressure * 100) + "%";
    const g = svg("g", { class: cls, "data-vertex": v.id, transform: `translate(${p.x},${p.y})` },
                  svg("title", {}, v.name),
                  svg("rect", { width: W, height: H, rx: 6 }),
                  svg("text", { class: "title", x: 10, y: 20 }, name),
                  svg("text", { x: 10, y: 40 }, `Parallelism: ${v.parallelism}`),
                  svg("text", { x: 10, y: 58 },
                      `Records in: ${fmtCount(v.records_in)}  out: ${fmtCount(v.records_out)}`),
                  svg("text", { x: 10, y: 76 },
                      running ? `${rate} rows/s in, back-pressured ${pressure}`
                              : `Late dropped: ${fmtCount(v.late_records_dropped)}`),
                  svg("text", { x: 10, y: 94 }, `Watermark: ${watermark}`));
    root.append(g);
  }
  return root;
}

function fmtMillis(ms) { return num(ms).toFixed(num(ms) < 10 ? 2 : 0) + " ms"; }

// The recent checkpoints, newest first (Flink's checkpoint history): one row each, its status as a
// class of the row.
function checkpointHistory(history) {
  if (!history.length) return el("p", { id: "checkpoint-history" }, "No checkpoint yet.");
  const t = table(["ID", "Status", "Triggered", "Latest acknowledgement", "Duration",
                   "Acknowledged", "Size", "Added", "Alignment", "Attempt", "Failure"], []);
  t.id = "checkpoint-history";
  for (const c of history) {
    t.append(el("tr", { class: "checkpoint checkpoint-" + c.status, "data-checkpoint": c.id },
                el("td", { class: "num" }, num(c.id) + (c.is_savepoint ? " (savepoint)" : "")),
                el("td", {}, el("span", { class: "state state-" + c.status }, c.status)),
                el("td", {}, fmtTime(c.trigger_timestamp)),
                el("td", {}, fmtTime(c.latest_ack_timestamp)),
                el("td", { class: "num" }, num(c.end_to_end_duration) + " ms"),
                el("td", { class: "num" },
                   num(c.num_acknowledged_subtasks) + "/" + num(c.num_subtasks)),
                el("td", { class: "num" }, fmtBytes(c.state_size)),
                el("td", { class: "num" }, fmtBytes(c.checkpointed_size)),
                el("td", { class: "num" }, fmtMillis(c.alignment_duration_ms)),
                el("td", { class: "num" }, num(c.attempt)),
                el("td", { class: "error" }, c.failure_message || "")));
  }
  return t;
}

async function jobPage(jid) {
  const [job, checkpoints, exceptions, plan] = await Promise.all([
    getJson("/jobs/" + jid), getJson("/jobs/" + jid + "/checkpoints"),
    getJson("/jobs/" + jid + "/exceptions"), getJson("/jobs/" + jid + "/plan")]);
  const act = activity(job);
  const parts = [
    el("h2", {}, "Job ", el("span", { id: "job-name" }, job.name), " ", state(job.state)),
    table(["ID", "Started", "Ended", "Duration", "Attempt", "Restarts"],
          [[job.jid, fmtTime(job.start_time), fmtTime(job.end_time), fmtDuration(job.duration),
            num(job.attempt), num(job.restarts)]]),
    el("h3", {}, "Job graph"), dag(job, act),
    el("h3", {}, "Vertices"),
    table(["Vertex", "Name", "Parallelism", "Records in", "Records out", "Busy", "Idle",
           "Back-pressured", "Late dropped", "State in memory", "State in RocksDB"],
          job.vertices.map((v) => [num(v.id), v.name, num(v.parallelism), num(v.records_in),
                                   num(v.records_out), fmtDuration(v.busy_ms),
                                   fmtDuration(v.idle_ms), fmtDuration(v.back_pressured_ms),
                                   num(v.late_records_dropped),
                                   fmtBytes(v.state_bytes_in_memory),
                                   fmtBytes(v.state_bytes_in_store)])),
    el("h3", {}, "Checkpoints"),
    table(["Completed", "Failed", "In progress", "Latest", "Completed ago", "Duration", "Size",
           "Added", "Alignment"],
          [[num(checkpoints.completed), num(checkpoints.failed), num(checkpoints.in_progress),
            num(checkpoints.latest_id),
            num(checkpoints.latest_completion_time) ? fmtDuration(checkpoints.latest_age_ms) : "-",
            num(checkpoints.latest_duration_ms) + " ms", fmtBytes(checkpoints.latest_size_bytes),
            fmtBytes(checkpoints.latest_new_bytes),
            fmtMillis(checkpoints.latest_alignment_duration_ms)]]),
    el("h4", {}, "Recent checkpoints"),
    checkpointHistory(checkpoints.history || []),
    el("h3", {}, "Exceptions"),
    exceptions.root_exception || exceptions.last_failure
        ? el("pre", { class: "error", id: "job-exception" },
             exceptions.root_exception || exceptions.last_failure)
        : el("p", {}, "None."),
    el("h3", {}, "Plan"),
    el("pre", { id: "job-plan" },
       plan.nodes.map((n) => `[vertex ${n.vertex}] #${n.id} ${n.description}` +
                             (n.inputs.length ? `  <- ${n.inputs.join(", ")}` : "")).join("\n")),
  ];
  if (job.error) parts.splice(2, 0, el("pre", { class: "error" }, job.error));
  return parts;
}

async function render() {
  const hash = location.hash || "#/";
  const main = document.getElementById("main");
  let content;
  try {
    const m = hash.match(/^#\/jobs\/([0-9a-zA-Z]+)$/);
    if (m) content = await jobPage(m[1]);
    else if (hash === "#/jobs") content = await jobsPage();
    else if (hash === "#/workers") content = await workersPage();
    else content = await overviewPage();
  } catch (e) {
    content = [el("p", { class: "error" }, "Cannot reach the coordinator: " + e.message)];
  }
  main.replaceChildren(...content);
  document.getElementById("refreshed").textContent =
      "refreshed " + new Date().toLocaleTimeString();
}

function schedule() {
  clearTimeout(timer);
  render().finally(() => { timer = setTimeout(schedule, REFRESH_MS); });
}

window.addEventListener("hashchange", schedule);
schedule();
