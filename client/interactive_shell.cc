#include "client/interactive_shell.h"

#include <readline/history.h>
#include <readline/readline.h>

#include <cstdlib>
#include <utility>

#include "absl/strings/ascii.h"
#include "client/statement_splitter.h"

namespace eddy {
namespace {

constexpr char kPrompt[] = "Eddy SQL> ";
constexpr char kContinuation[] = "> ";

class TerminalReader : public LineReader {
 public:
  explicit TerminalReader(std::string history_file) : history_file_(std::move(history_file)) {
    using_history();
    if (!history_file_.empty()) read_history(history_file_.c_str());
  }
  ~TerminalReader() override {
    if (!history_file_.empty()) write_history(history_file_.c_str());
  }
  std::optional<std::string> Read(const std::string& prompt) override {
    char* line = readline(prompt.c_str());
    if (line == nullptr) return std::nullopt;
    std::string s(line);
    std::free(line);
    if (!absl::StripAsciiWhitespace(s).empty()) add_history(s.c_str());
    return s;
  }

 private:
  std::string history_file_;
};

class StreamReader : public LineReader {
 public:
  explicit StreamReader(FILE* in) : in_(in) {}
  std::optional<std::string> Read(const std::string&) override {
    std::string line;
    int c;
    while ((c = std::fgetc(in_)) != EOF && c != '\n') line += static_cast<char>(c);
    if (c == EOF && line.empty()) return std::nullopt;
    return line;
  }

 private:
  FILE* in_;
};

}  // namespace

std::unique_ptr<LineReader> MakeTerminalReader(std::string history_file) {
  return std::make_unique<TerminalReader>(std::move(history_file));
}

std::unique_ptr<LineReader> MakeStreamReader(FILE* in) {
  return std::make_unique<StreamReader>(in);
}

int RunShell(ScriptRunner* runner, LineReader* reader, const ShellOptions& options,
             FILE* messages) {
  if (options.banner) {
    std::fprintf(messages,
                 "Eddy SQL shell. Statements end with ';'. HELP; lists the commands, QUIT; leaves.\n");
    std::fflush(messages);
  }
  StatementSplitter splitter;
  bool failed = false;
  bool quit = false;
  while (!quit) {
    std::optional<std::string> line = reader->Read(splitter.pending() ? kContinuation : kPrompt);
    if (!line) break;
    for (const std::string& statement : splitter.Add(*line + "\n")) {
      // A Ctrl-C at the prompt must not interrupt the next statement.
      if (options.interrupted != nullptr) options.interrupted->store(false);
      failed = !runner->RunInteractive(statement, &quit).ok();
      if (options.interrupted != nullptr) options.interrupted->store(false);
      if (quit) break;
    }
  }
  // Input ended inside a statement: run it, as a script's last statement may lack its ';'.
  if (!quit) {
    std::string rest = splitter.TakeRest();
    if (!rest.empty()) failed = !runner->RunInteractive(rest, &quit).ok();
  }
  if (!runner->FinishJobs().ok()) failed = true;
  return failed ? 1 : 0;
}

}  // namespace eddy
