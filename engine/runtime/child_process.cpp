#include "engine/runtime/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace mrnn::engine {

namespace {

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
      throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    closeRead();
    closeWrite();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void closeRead() {
    if (read >= 0) ::close(read);
    read = -1;
  }
  void closeWrite() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

}  // namespace

ChildOutcome runChildProcess(const std::vector<std::string>& argv,
                             const std::vector<std::string>& environment) {
  if (argv.empty()) throw std::runtime_error("no program to run");
  Pipe out, err, execError;  // execError stays open (CLOEXEC) only if exec fails
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The child's environment, built here: between fork and exec only async-signal-safe calls
  // are allowed, and putenv may allocate.
  std::vector<std::string> added = environment;
  std::vector<char*> envp;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    bool replaced = false;
    for (const auto& a : added)
      replaced = replaced || a.compare(0, name.size() + 1, name + "=") == 0;
    if (!replaced) envp.push_back(*entry);
  }
  for (auto& a : added) envp.push_back(a.data());
  envp.push_back(nullptr);

  const pid_t parent = ::getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
  if (pid == 0) {
    // A measurement never outlives the command that waits for it (SIGTERM or kill -9 of the
    // caller): the kernel ends it too.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) _exit(127);
    dup2(out.write, STDOUT_FILENO);
    dup2(err.write, STDERR_FILENO);
    execvpe(args[0], args.data(), envp.data());
    const int code = errno;
    [[maybe_unused]] const auto written = ::write(execError.write, &code, sizeof code);
    _exit(127);
  }
  out.closeWrite();
  err.closeWrite();
  execError.closeWrite();

  ChildOutcome outcome;
  pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
  std::string* sinks[2] = {&outcome.out, &outcome.err};
  int open = 2;
  char buffer[4096];
  while (open > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  int code = 0;
  if (::read(execError.read, &code, sizeof code) == static_cast<ssize_t>(sizeof code)) {
    throw std::runtime_error("cannot run '" + argv[0] + "': " + std::strerror(code));
  }
  outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  outcome.peakResidentKb = usage.ru_maxrss;
  return outcome;
}

}  // namespace mrnn::engine
