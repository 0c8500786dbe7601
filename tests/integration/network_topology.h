// Where the processes of an integration-test cluster live. When the machine allows it (root,
// iproute2), every worker gets its own network namespace with its own address on a test bridge,
// like separate hosts on one network segment; otherwise everything shares loopback and the topology
// says so.
#pragma once

#include <string>
#include <vector>

namespace eddy::testing {

class NetworkTopology {
 public:
  // Builds hosts for `workers` worker processes; never fails (falls back to loopback).
  static NetworkTopology Create(int workers);
  // Everything on loopback, for tests that do not need separate hosts.
  static NetworkTopology Loopback(int workers, const std::string& why);
  NetworkTopology(NetworkTopology&& o) noexcept;
  NetworkTopology& operator=(NetworkTopology&&) = delete;
  ~NetworkTopology();  // removes the namespaces and the bridge it created

  bool isolated() const { return !namespaces_.empty(); }
  // One line for the test output: which topology, and why loopback when it fell back.
  const std::string& description() const { return description_; }
  // The address the coordinator binds and everyone dials.
  const std::string& coordinator_host() const { return coordinator_host_; }
  const std::string& worker_host(int i) const { return worker_hosts_[i]; }
  // Prepended to a worker's command line: `ip netns exec <ns>` when isolated, nothing otherwise.
  std::vector<std::string> WorkerLauncher(int i) const;

 private:
  NetworkTopology() = default;
  void TearDown();

  std::string description_;
  std::string coordinator_host_ = "127.0.0.1";
  std::vector<std::string> worker_hosts_;
  std::string ip_binary_;
  std::string bridge_;
  std::vector<std::string> namespaces_;
};

}  // namespace eddy::testing
