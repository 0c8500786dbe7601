#include "client/interactive_shell.h"

#include <fcntl.h>
#include <poll.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "client/statement_splitter.h"

namespace eddy {
namespace {

constexpr char kPrompt[] = "Eddy SQL> ";
constexpr char kContinuation[] = "> ";

// Readline's callback interface, so that a Ctrl-C can end the wait for a line: the SIGINT handler
// only sets `interrupted` (readline does not install its own handlers), and the loop below polls
// the terminal and the flag. A Ctrl-C drops what was typed at the prompt; the caller then drops
// the unfinished statement too.
//
// Readline reads its keys through ReadKey, never with a blocking read: a Ctrl-C makes the
// terminal discard the input it holds, so a key that poll() announced may be gone by the time it
// is read, and a blocking read would then wait for the next key with the Ctrl-C unanswered.
class TerminalReader : public LineReader {
 public:
  TerminalReader(std::string history_file, const std::atomic<bool>* interrupted)
      : history_file_(std::move(history_file)), interrupted_(interrupted) {
    rl_catch_signals = 0;
    rl_getc_function = &TerminalReader::ReadKey;
    using_history();
    if (!history_file_.empty()) read_history(history_file_.c_str());
  }
  ~TerminalReader() override {
    if (!history_file_.empty()) write_history(history_file_.c_str());
    if (key_fd_ >= 0) close(key_fd_);
  }
  std::optional<std::string> Read(const std::string& prompt) override {
    current_ = this;
    done_ = false;
    line_.reset();
    rl_callback_handler_install(prompt.c_str(), &TerminalReader::OnLine);
    while (!done_) {
      if (interrupted_ != nullptr && interrupted_->load()) {
        rl_callback_sigcleanup();
        rl_replace_line("", 0);
        rl_callback_handler_remove();
        std::fputs("^C\n", rl_outstream ? rl_outstream : stdout);
        return std::string();
      }
      pollfd p{fileno(rl_instream ? rl_instream : stdin), POLLIN, 0};
      const int ready = poll(&p, 1, 100);
      if (ready > 0) {
        rl_callback_read_char();
      } else if (ready < 0 && errno != EINTR) {
        rl_callback_handler_remove();
        return std::nullopt;
      }
    }
    if (line_ && !absl::StripAsciiWhitespace(*line_).empty()) add_history(line_->c_str());
    return line_;
  }

 private:
  static void OnLine(char* line) {
    rl_callback_handler_remove();  // no prompt after the line; the next Read installs it again
    if (line != nullptr) {
      current_->line_ = std::string(line);
      std::free(line);
    }
    current_->done_ = true;
  }

  // One key from the terminal. The terminal is read through a descriptor of its own opened
  // non-blocking (the shell's standard input, shared with the parent shell, keeps its mode). On a
  // Ctrl-C it returns C-@, a key that only sets the mark, so that readline returns to Read, which
  // drops the line.
  static int ReadKey(FILE* in) {
    const int fd = current_->KeyDescriptor(fileno(in));
    for (;;) {
      if (current_->interrupted_ != nullptr && current_->interrupted_->load()) return 0;
      unsigned char key = 0;
      const ssize_t n = read(fd, &key, 1);
      if (n == 1) return key;
      if (n == 0) return EOF;
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return EOF;
      pollfd p{fd, POLLIN, 0};
      (void)poll(&p, 1, 100);
    }
  }

  int KeyDescriptor(int in_fd) {
    if (key_fd_ < 0) {
      const char* name = ttyname(in_fd);
      key_fd_ = name == nullptr ? -1 : open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
      if (key_fd_ < 0) key_fd_ = dup(in_fd);  // not a terminal device: blocking reads are safe
    }
    return key_fd_;
  }

  static inline TerminalReader* current_ = nullptr;
  std::string history_file_;
  const std::atomic<bool>* interrupted_;
  bool done_ = false;
  std::optional<std::string> line_;
  int key_fd_ = -1;
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

std::unique_ptr<LineReader> MakeTerminalReader(std::string history_file,
                                               const std::atomic<bool>* interrupted) {
  return std::make_unique<TerminalReader>(std::move(history_file), interrupted);
}

std::unique_ptr<LineReader> MakeStreamReader(FILE* in) {
  return std::make_unique<StreamReader>(in);
}

int RunShell(ScriptRunner* runner, LineReader* reader, const ShellOptions& options,
             FILE* messages) {
  if (options.banner) {
    std::fprintf(
        messages,
        "Eddy SQL shell. Statements end with ';'. HELP; lists the commands, QUIT; leaves.\n");
    std::fflush(messages);
  }
  StatementSplitter splitter;
  bool failed = false;
  bool quit = false;
  int statement_line = 1;  // the line of the statement being typed
  while (!quit) {
    // sql-client.display.show-line-numbers: a statement's second line is prompted `2> `, ...
    std::string prompt = kPrompt;
    if (splitter.pending()) {
      ++statement_line;
      prompt = runner->settings().show_line_numbers ? absl::StrCat(statement_line, kContinuation)
                                                    : std::string(kContinuation);
    } else {
      statement_line = 1;
    }
    std::optional<std::string> line = reader->Read(prompt);
    if (!line || (options.hangup != nullptr && options.hangup->load())) break;
    // A Ctrl-C while typing drops the unfinished statement, as it drops the line being edited.
    if (options.interrupted != nullptr && options.interrupted->exchange(false)) {
      splitter.Discard();
      continue;
    }
    for (const std::string& statement : splitter.Add(*line + "\n")) {
      failed = !runner->RunInteractive(statement, &quit).ok();
      if (options.hangup != nullptr && options.hangup->load()) quit = true;
      // A Ctrl-C that stopped this statement must not reach the next one.
      if (options.interrupted != nullptr) options.interrupted->store(false);
      if (quit) break;
    }
  }
  // Input ended inside a statement: run it, as a script's last statement may lack its ';'.
  if (!quit) {
    std::string rest = splitter.TakeRest();
    if (!rest.empty()) failed = !runner->RunInteractive(rest, &quit).ok();
    if (!quit && !runner->EndOfInput().ok()) failed = true;
  }
  runner->LeaveSession();
  return failed ? 1 : 0;
}

}  // namespace eddy
