// The interactive `eddy` shell: reads lines (with line editing and history on a terminal, plain
// lines from a pipe), runs each complete statement as it is finished with ';', prints results and
// Flink-style messages, and keeps going after errors and interrupted queries. QUIT; or EXIT; or the
// end of input leaves (ScriptRunner::LeaveSession says what happens to jobs still running).
#pragma once

#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "client/script_runner.h"

namespace eddy {

// Where the shell's lines come from.
class LineReader {
 public:
  virtual ~LineReader() = default;
  // The next line without its newline, or nullopt at the end of input.
  virtual std::optional<std::string> Read(const std::string& prompt) = 0;
};

// GNU readline on a terminal (history kept in `history_file` when not empty). When `interrupted`
// is set while it waits (Ctrl-C), it drops the line being typed and returns an empty line.
std::unique_ptr<LineReader> MakeTerminalReader(std::string history_file,
                                               const std::atomic<bool>* interrupted);
// Lines of a stream, no prompt (stdin that is not a terminal).
std::unique_ptr<LineReader> MakeStreamReader(FILE* in);

struct ShellOptions {
  bool banner = true;  // a one-line greeting on `messages`
  // Set by the SIGINT handler: interrupts the running statement, or drops the statement being
  // typed; the shell clears it afterwards.
  std::atomic<bool>* interrupted = nullptr;
  // Set by the SIGHUP handler (the terminal closed): the session ends as at QUIT.
  const std::atomic<bool>* hangup = nullptr;
};

// Runs statements until QUIT or the end of input; returns 0, or 1 when the last statement failed.
int RunShell(ScriptRunner* runner, LineReader* reader, const ShellOptions& options, FILE* messages);

}  // namespace eddy
