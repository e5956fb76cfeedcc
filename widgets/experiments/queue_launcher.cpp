#include "widgets/experiments/queue_launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/io/own_file.h"
#include "widgets/native_path.h"

namespace mrnn::widgets {
namespace {

// Reads exactly `size` bytes unless the other end closes first; the count read.
ssize_t readFully(int fd, void* buffer, size_t size) {
  size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, static_cast<char*>(buffer) + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

}  // namespace

qint64 QueueLauncher::startDetached(const QString& program, const QStringList& arguments,
                                    const QString& folder, const QString& logPath) {
  // Everything the children need is made before fork: after it, in a process with threads,
  // only async-signal-safe calls are allowed.
  std::vector<std::string> argv{toNativePath(program)};
  for (const QString& argument : arguments) argv.push_back(toNativePath(argument));
  std::vector<char*> args;
  for (auto& arg : argv) args.push_back(arg.data());
  args.push_back(nullptr);
  const std::string workingFolder = toNativePath(folder);
  const int log = engine::openOwnFile(toNativePath(logPath), engine::OwnFileUse::Append);
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  rlimit files{};
  const int highestFd = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536
                            ? static_cast<int>(files.rlim_cur)
                            : 65536;
  int pidPipe[2];
  int errorPipe[2];
  if (::pipe2(pidPipe, O_CLOEXEC) != 0 || ::pipe2(errorPipe, O_CLOEXEC) != 0) {
    ::close(log);
    throw std::runtime_error(std::string("cannot start the queue: ") + std::strerror(errno));
  }

  // Two forks: the grandchild is no process-group leader, so setsid() makes it one of a new
  // session; its parent exits at once, so it is nobody's zombie (init reaps it).
  const pid_t middle = ::fork();
  if (middle < 0) {
    const int error = errno;
    for (const int fd : {log, null, pidPipe[0], pidPipe[1], errorPipe[0], errorPipe[1]}) {
      if (fd >= 0) ::close(fd);
    }
    throw std::runtime_error(std::string("cannot start the queue: ") + std::strerror(error));
  }
  if (middle == 0) {
    const pid_t queue = ::fork();
    if (queue == 0) {
      ::setsid();
      sigset_t none;
      ::sigemptyset(&none);
      ::sigprocmask(SIG_SETMASK, &none, nullptr);
      struct sigaction fallback {};
      fallback.sa_handler = SIG_DFL;
      for (const int signal : {SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD}) {
        ::sigaction(signal, &fallback, nullptr);
      }
      ::dup2(log, STDOUT_FILENO);
      ::dup2(log, STDERR_FILENO);
      if (null >= 0) ::dup2(null, STDIN_FILENO);
      // No descriptor of the workbench's (its display connection, a run's lock) may live on
      // in the queue; the error pipe closes itself on exec.
      for (int fd = 3; fd < highestFd; ++fd) {
        if (fd != errorPipe[1]) ::close(fd);
      }
      int error = 0;
      if (::chdir(workingFolder.c_str()) == 0) {
        ::execv(args[0], args.data());
      }
      error = errno;
      (void)!::write(errorPipe[1], &error, sizeof error);
      ::_exit(127);
    }
    const int64_t pid = queue;
    (void)!::write(pidPipe[1], &pid, sizeof pid);
    ::_exit(queue > 0 ? 0 : 1);
  }
  for (const int fd : {log, null, pidPipe[1], errorPipe[1]}) {
    if (fd >= 0) ::close(fd);
  }
  int status = 0;
  while (::waitpid(middle, &status, 0) < 0 && errno == EINTR) {
  }
  int64_t pid = -1;
  const bool gotPid = readFully(pidPipe[0], &pid, sizeof pid) == sizeof pid && pid > 0;
  ::close(pidPipe[0]);
  int error = 0;
  // Blocks until the queue execs (the pipe closes with nothing in it) or reports why not.
  const bool failed = gotPid && readFully(errorPipe[0], &error, sizeof error) == sizeof error;
  ::close(errorPipe[0]);
  if (!gotPid) throw std::runtime_error("cannot start the queue: fork failed");
  if (failed) {
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  }
  return pid;
}

}  // namespace mrnn::widgets
