#include "engine/runtime/child_handle.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "engine/io/own_file.h"

namespace mrnn::engine {
namespace {

int exitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

ChildHandle ChildHandle::start(const std::vector<std::string>& argv, const std::string& logPath,
                               const std::vector<std::string>& environment) {
  if (argv.empty()) throw std::runtime_error("no program to start");
  const bool inherit = logPath.empty();
  // Never appended through a link, nor waited on as a FIFO.
  const int log = inherit ? -1 : openOwnFile(logPath, OwnFileUse::Append);
  // Everything the child needs is prepared before fork: only async-signal-safe calls after.
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  int ready[2];
  if (::pipe2(ready, O_CLOEXEC) != 0) {
    if (log >= 0) ::close(log);
    throw std::runtime_error(std::string("cannot start a child process: ") + std::strerror(errno));
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    if (log >= 0) ::close(log);
    ::close(ready[0]);
    ::close(ready[1]);
    throw std::runtime_error(std::string("cannot start a child process: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(3);  // the parent died before prctl: stop at once
    if (!inherit) {
      ::dup2(log, STDOUT_FILENO);
      ::dup2(log, STDERR_FILENO);
    }
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    for (const auto& entry : environment) ::putenv(const_cast<char*>(entry.c_str()));
    ::execvp(args[0], args.data());
    const int error = errno;
    (void)!::write(ready[1], &error, sizeof error);
    ::_exit(127);
  }
  if (log >= 0) ::close(log);
  ::close(ready[1]);
  int error = 0;
  const ssize_t got = ::read(ready[0], &error, sizeof error);
  ::close(ready[0]);
  ChildHandle child;
  child.pid_ = pid;
  if (got == static_cast<ssize_t>(sizeof error)) {
    child.wait();
    throw std::runtime_error("cannot start '" + argv[0] + "': " + std::strerror(error));
  }
  return child;
}

ChildHandle::~ChildHandle() = default;

ChildHandle::ChildHandle(ChildHandle&& other) noexcept
    : pid_(other.pid_), exitCode_(other.exitCode_) {
  other.pid_ = -1;
  other.exitCode_.reset();
}

ChildHandle& ChildHandle::operator=(ChildHandle&& other) noexcept {
  pid_ = other.pid_;
  exitCode_ = other.exitCode_;
  other.pid_ = -1;
  other.exitCode_.reset();
  return *this;
}

std::optional<int> ChildHandle::poll() {
  if (exitCode_ || pid_ <= 0) return exitCode_;
  int status = 0;
  const pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done == pid_) exitCode_ = exitCodeOf(status);
  return exitCode_;
}

int ChildHandle::wait() {
  if (exitCode_ || pid_ <= 0) return exitCode_.value_or(-1);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  exitCode_ = exitCodeOf(status);
  return *exitCode_;
}

void ChildHandle::signal(int signalNumber) const {
  if (pid_ > 0 && !exitCode_) ::kill(pid_, signalNumber);
}

}  // namespace mrnn::engine
