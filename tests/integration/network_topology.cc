#include "tests/integration/network_topology.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sstream>
#include <stdexcept>

namespace eddy::testing {
namespace {

// Runs a shell command; returns its exit code and puts stdout+stderr into `output`.
int Shell(const std::string& command, std::string* output = nullptr) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return -1;
  std::string text;
  char buf[512];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) text.append(buf, n);
  int rc = pclose(p);
  if (output != nullptr) *output = text;
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// Names are "eddyit<pid>w<i>" (namespaces) and "eddybr<pid>" (bridges): removes those whose
// creating test process is gone, so a crashed run leaves nothing behind for long.
void RemoveStaleHosts() {
  std::string list;
  if (Shell("ip netns list", &list) == 0) {
    std::istringstream in(list);
    std::string name;
    while (in >> name) {
      if (name.rfind("eddyit", 0) != 0) continue;
      int pid = std::atoi(name.c_str() + 6);
      if (pid > 0 && kill(pid, 0) != 0) Shell("ip netns del " + name);
    }
  }
  if (Shell("ip -o link show type bridge", &list) == 0) {
    size_t p = 0;
    while ((p = list.find("eddybr", p)) != std::string::npos) {
      int pid = std::atoi(list.c_str() + p + 6);
      if (pid > 0 && kill(pid, 0) != 0) Shell("ip link del eddybr" + std::to_string(pid));
      p += 6;
    }
  }
}

// A /24 in 10.128.0.0/9 that no interface of this host uses yet, starting from one derived from the
// pid.
std::string FreeSubnet(int pid) {
  std::string addrs;
  Shell("ip -4 -o addr show", &addrs);
  for (int k = 0; k < 32768; ++k) {
    int v = (pid + k) % 32768;
    std::string prefix =
        "10." + std::to_string(128 + v / 256) + "." + std::to_string(v % 256) + ".";
    if (addrs.find(" " + prefix) == std::string::npos) return prefix;
  }
  return "";
}

}  // namespace

NetworkTopology NetworkTopology::Loopback(int workers, const std::string& why) {
  NetworkTopology t;
  t.worker_hosts_.assign(workers, "127.0.0.1");
  t.description_ = "[topology] " + why + ": coordinator and workers share loopback ports";
  return t;
}

NetworkTopology NetworkTopology::Create(int workers) {
  NetworkTopology t;
  auto loopback = [&](const std::string& why) {
    t.TearDown();
    return Loopback(workers, "network namespaces unavailable (" + why + ")");
  };
  if (geteuid() != 0) return loopback("not root");
  std::string out;
  if (Shell("command -v ip", &out) != 0) return loopback("iproute2 not installed");
  t.ip_binary_ = out.substr(0, out.find('\n'));
  if (Shell("ip netns list", &out) != 0) return loopback("ip netns: " + out);
  RemoveStaleHosts();

  const int pid = getpid();
  const std::string subnet = FreeSubnet(pid);
  if (subnet.empty()) return loopback("no free 10.128.0.0/9 subnet");
  t.bridge_ = "eddybr" + std::to_string(pid);
  t.coordinator_host_ = subnet + "1";
  auto run = [&](const std::string& cmd) {
    std::string o;
    if (Shell(cmd, &o) != 0) throw std::runtime_error(cmd + ": " + o);
  };
  try {
    run("ip link add " + t.bridge_ + " type bridge");
    run("ip addr add " + t.coordinator_host_ + "/24 dev " + t.bridge_);
    run("ip link set " + t.bridge_ + " up");
    for (int i = 0; i < workers; ++i) {
      std::string ns = "eddyit" + std::to_string(pid) + "w" + std::to_string(i);
      std::string veth = "ev" + std::to_string(pid) + "w" + std::to_string(i);
      std::string host = subnet + std::to_string(10 + i);
      run("ip netns add " + ns);
      t.namespaces_.push_back(ns);
      run("ip link add " + veth + " type veth peer name eth0 netns " + ns);
      run("ip link set " + veth + " master " + t.bridge_ + " up");
      run("ip -n " + ns + " addr add " + host + "/24 dev eth0");
      run("ip -n " + ns + " link set eth0 up");
      run("ip -n " + ns + " link set lo up");
      t.worker_hosts_.push_back(host);
    }
  } catch (const std::exception& e) {
    return loopback(e.what());
  }
  t.description_ = "[topology] coordinator at " + t.coordinator_host_ + " on bridge " + t.bridge_ +
                   "; each worker in its own network namespace at " + subnet + "10.." + subnet +
                   std::to_string(9 + workers);
  return t;
}

NetworkTopology::NetworkTopology(NetworkTopology&& o) noexcept
    : description_(std::move(o.description_)),
      coordinator_host_(std::move(o.coordinator_host_)),
      worker_hosts_(std::move(o.worker_hosts_)),
      ip_binary_(std::move(o.ip_binary_)),
      bridge_(std::move(o.bridge_)),
      namespaces_(std::move(o.namespaces_)) {
  o.bridge_.clear();
  o.namespaces_.clear();
}

NetworkTopology::~NetworkTopology() { TearDown(); }

void NetworkTopology::TearDown() {
  for (const auto& ns : namespaces_) Shell("ip netns del " + ns);  // also removes the veth pair
  namespaces_.clear();
  if (!bridge_.empty()) Shell("ip link del " + bridge_);
  bridge_.clear();
  worker_hosts_.clear();
}

std::vector<std::string> NetworkTopology::WorkerLauncher(int i) const {
  if (namespaces_.empty()) return {};
  return {ip_binary_, "netns", "exec", namespaces_[i]};
}

}  // namespace eddy::testing
