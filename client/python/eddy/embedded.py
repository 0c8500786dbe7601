"""An embedded cluster for a Python program: one eddy-coordinator and N eddy-worker processes
started as children on free loopback ports, in a temporary directory, stopped (and the directory
removed) on close() or when the program exits.

The binaries are found in `bin_dir`, else in $EDDY_BIN_DIR, else on $PATH. Their logs go to files
in the temporary directory (quoted in the error when they fail to start); the workers' standard
output, where the print connector writes, goes to `print_output` (default: this process's own).
"""

import atexit
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from eddy.util.exceptions import EddyException, EmbeddedClusterException

START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0


def find_binary_dir(bin_dir=None):
    """The directory holding eddy-coordinator and eddy-worker."""
    candidates = []
    if bin_dir:
        candidates.append(("bin_dir", bin_dir))
    elif os.environ.get("EDDY_BIN_DIR"):
        candidates.append(("$EDDY_BIN_DIR", os.environ["EDDY_BIN_DIR"]))
    else:
        found = shutil.which("eddy-coordinator")
        if found:
            candidates.append(("$PATH", os.path.dirname(found)))
    for origin, d in candidates:
        missing = [
            b for b in ("eddy-coordinator", "eddy-worker")
            if not os.access(os.path.join(d, b), os.X_OK)
        ]
        if missing:
            raise EmbeddedClusterException("%s (%s) has no executable %s" %
                                           (origin, d, " or ".join(missing)))
        return d
    raise EmbeddedClusterException(
        "cannot start an embedded cluster: eddy-coordinator is not on $PATH; set EDDY_BIN_DIR to "
        "Eddy's build/bin (or pass bin_dir), or connect to a running cluster with "
        "TableEnvironment.connect('host:port')")


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent():
    # Linux: the child gets SIGKILL when this process dies, so no cluster outlives its program.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _tail(path, lines=20):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


class EmbeddedCluster:
    """Start with EmbeddedCluster.start(); `address` is the coordinator's host:port."""

    def __init__(self):
        self.address = None
        self.dir = None
        self._processes = []  # (name, Popen, log path)
        self._files = []

    @classmethod
    def start(cls,
              bin_dir=None,
              workers=1,
              slots=4,
              print_output=None,
              coordinator_args=(),
              worker_args=()):
        """coordinator_args / worker_args: more flags for the binaries (`--help` lists them)."""
        bin_dir = find_binary_dir(bin_dir)
        if workers < 1 or slots < 1:
            raise EmbeddedClusterException("an embedded cluster needs at least one worker and slot")
        cluster = cls()
        cluster.dir = tempfile.mkdtemp(prefix="eddy-embedded-")
        atexit.register(cluster.close)
        try:
            # A free port can be taken between the probe and the coordinator's bind: try again.
            for attempt in range(3):
                port = _free_port()
                coordinator = cluster._spawn("coordinator", [
                    os.path.join(bin_dir, "eddy-coordinator"), "--port",
                    str(port), "--bind-host", "127.0.0.1", "--data-dir",
                    os.path.join(cluster.dir, "coordinator")
                ] + list(coordinator_args), None)
                cluster.address = "127.0.0.1:%d" % port
                if cluster._wait_serving(coordinator):
                    break
                cluster._stop_all()
                if attempt == 2:
                    raise EmbeddedClusterException(
                        "eddy-coordinator did not start; its log:\n" +
                        _tail(os.path.join(cluster.dir, "coordinator.log")))
            for i in range(workers):
                cluster._spawn("worker%d" % i, [
                    os.path.join(bin_dir, "eddy-worker"), "--coordinator", cluster.address,
                    "--port", "0", "--bind-host", "127.0.0.1", "--advertise-host", "127.0.0.1",
                    "--slots",
                    str(slots), "--data-dir",
                    os.path.join(cluster.dir, "worker%d" % i)
                ] + list(worker_args), print_output)
            cluster._wait_workers(workers)
        except BaseException:
            cluster.close()
            raise
        return cluster

    def _spawn(self, name, argv, stdout_path):
        log_path = os.path.join(self.dir, name + ".log")
        log = open(log_path, "ab")
        self._files.append(log)
        out = None
        if stdout_path is not None:
            out = open(stdout_path, "ab")
            self._files.append(out)
        p = subprocess.Popen(argv,
                             stdin=subprocess.DEVNULL,
                             stdout=out,
                             stderr=log,
                             preexec_fn=_die_with_parent)
        self._processes.append((name, p, log_path))
        return p

    def _client(self):
        from eddy.client import EddyClient  # needs the generated modules
        return EddyClient(self.address, "embedded-cluster-probe")

    def _wait_serving(self, coordinator):
        client = self._client()
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while time.monotonic() < deadline:
                if coordinator.poll() is not None:
                    return False
                try:
                    client.list_workers()
                    return True
                except EddyException:
                    time.sleep(0.05)
            return False
        finally:
            client.close()

    def _wait_workers(self, n):
        client = self._client()
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while True:
                for name, p, log in self._processes:
                    if p.poll() is not None:
                        raise EmbeddedClusterException(
                            "eddy %s exited with status %d while the embedded cluster started; "
                            "its log:\n%s" % (name, p.returncode, _tail(log)))
                if len(client.list_workers()) >= n:
                    return
                if time.monotonic() > deadline:
                    raise EmbeddedClusterException(
                        "the embedded cluster's workers did not register within %.0f s" %
                        START_TIMEOUT_S)
                time.sleep(0.05)
        finally:
            client.close()

    def _stop_all(self):
        for _, p, _ in self._processes:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for _, p, _ in self._processes:
            try:
                p.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self._processes = []
        for f in self._files:
            f.close()
        self._files = []

    def worker_pids(self):
        """Process ids of the running workers."""
        return [p.pid for name, p, _ in self._processes if name != "coordinator" and p.poll() is None]

    def pids(self):
        """Process ids of the running processes, coordinator first."""
        return [p.pid for _, p, _ in self._processes if p.poll() is None]

    def close(self):
        """Stops every process (SIGTERM, then SIGKILL after 10 s) and removes the directory."""
        self._stop_all()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
        atexit.unregister(self.close)
