// eddy-kafka-mock: a Kafka cluster in one process, on librdkafka's mock cluster, so that Kafka
// tables can be tried and tested with no broker installed. Prints the bootstrap address on the
// first line of stdout, then serves until SIGTERM or SIGINT.
//
//   eddy-kafka-mock [--brokers N] [--topic NAME:PARTITIONS]...
//
// Topics that are not created up front are created on first use with 4 partitions (the mock's
// default). While it serves, it reads commands from stdin, one a line (at the end of the input it
// waits for more, so stdin may be a file that grows):
//
//   create-topic NAME PARTITIONS   creates a topic; prints "created topic NAME" on stdout
//
// (the mock cluster cannot add partitions to an existing topic). The mock keeps everything in
// memory; see docs/kafka.md for what it does not enforce.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

int Usage(const char* message) {
  std::fprintf(stderr,
               "eddy-kafka-mock: %s\nusage: eddy-kafka-mock [--brokers N] "
               "[--topic NAME:PARTITIONS]...\n",
               message);
  return 2;
}

bool ParsePositive(const char* text, int* out) {
  char* end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 1 || v > 100000) return false;
  *out = static_cast<int>(v);
  return true;
}

// Runs the commands of stdin until the process ends.
void ServeCommands(rd_kafka_mock_cluster_t* cluster, int brokers) {
  std::string pending;
  char buffer[4096];
  for (;;) {
    const size_t nl = pending.find('\n');
    if (nl == std::string::npos) {
      const ssize_t n = read(0, buffer, sizeof(buffer));
      if (n > 0) {
        pending.append(buffer, static_cast<size_t>(n));
      } else {  // the end of the input so far (or an error): wait for more
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      continue;
    }
    const std::string line = pending.substr(0, nl);
    pending.erase(0, nl + 1);
    std::istringstream words(line);
    std::string command, name, partitions_text, extra;
    words >> command >> name >> partitions_text >> extra;
    if (command.empty()) continue;
    int partitions = 0;
    if (command != "create-topic" || name.empty() || !extra.empty() ||
        !ParsePositive(partitions_text.c_str(), &partitions)) {
      std::fprintf(stderr, "eddy-kafka-mock: unknown command '%s' (create-topic NAME PARTITIONS)\n",
                   line.c_str());
      continue;
    }
    rd_kafka_resp_err_t err =
        rd_kafka_mock_topic_create(cluster, name.c_str(), partitions, brokers < 3 ? brokers : 3);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      std::fprintf(stderr, "eddy-kafka-mock: topic '%s': %s\n", name.c_str(),
                   rd_kafka_err2str(err));
      continue;
    }
    std::printf("created topic %s\n", name.c_str());
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int brokers = 1;
  std::vector<std::pair<std::string, int>> topics;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("usage: eddy-kafka-mock [--brokers N] [--topic NAME:PARTITIONS]...\n");
      return 0;
    }
    if (i + 1 >= argc) return Usage(("missing value after " + arg).c_str());
    const char* value = argv[++i];
    if (arg == "--brokers") {
      if (!ParsePositive(value, &brokers)) return Usage("--brokers takes a positive number");
    } else if (arg == "--topic") {
      const std::string spec = value;
      const size_t colon = spec.rfind(':');
      int partitions = 0;
      if (colon == std::string::npos || colon == 0 ||
          !ParsePositive(spec.c_str() + colon + 1, &partitions)) {
        return Usage(("--topic takes NAME:PARTITIONS, got '" + spec + "'").c_str());
      }
      topics.emplace_back(spec.substr(0, colon), partitions);
    } else {
      return Usage(("unknown argument '" + arg + "'").c_str());
    }
  }

  // Block the stop signals before librdkafka starts its threads, so that only sigwait sees them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);

  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_t* host = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (host == nullptr) {
    std::fprintf(stderr, "eddy-kafka-mock: %s\n", error);
    return 1;
  }
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(host, brokers);
  if (cluster == nullptr) {
    std::fprintf(stderr, "eddy-kafka-mock: cannot start the mock cluster\n");
    rd_kafka_destroy(host);
    return 1;
  }
  for (const auto& [name, partitions] : topics) {
    rd_kafka_resp_err_t err =
        rd_kafka_mock_topic_create(cluster, name.c_str(), partitions, brokers < 3 ? brokers : 3);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      std::fprintf(stderr, "eddy-kafka-mock: topic '%s': %s\n", name.c_str(),
                   rd_kafka_err2str(err));
      rd_kafka_mock_cluster_destroy(cluster);
      rd_kafka_destroy(host);
      return 1;
    }
  }
  std::printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  std::fflush(stdout);
  std::thread(ServeCommands, cluster, brokers).detach();  // ends with the process

  int signal = 0;
  sigwait(&stop, &signal);
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(host);
  return 0;
}
