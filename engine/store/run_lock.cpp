#include "engine/store/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "engine/io/own_file.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

std::string thisProgram() {
  std::ifstream in("/proc/self/comm");
  std::string name;
  std::getline(in, name);
  return name.empty() ? "unknown program" : name;
}

std::string thisHost() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "this host";
  return name;
}

// The holder lines: pid, host, program, since.
LockHolder readHolder(int fd) {
  std::string text;
  char buffer[512];
  ssize_t got = 0;
  off_t offset = 0;
  while ((got = pread(fd, buffer, sizeof buffer, offset)) > 0 && text.size() < 4096) {
    text.append(buffer, static_cast<size_t>(got));
    offset += got;
  }
  LockHolder holder;
  std::istringstream in(text);
  std::string pid;
  std::getline(in, pid);
  std::getline(in, holder.host);
  std::getline(in, holder.program);
  std::getline(in, holder.since);
  try {
    holder.pid = std::stoll(pid);
  } catch (const std::exception&) {
    holder.pid = 0;  // written by a process that died before finishing the line
  }
  return holder;
}

}  // namespace

std::string LockHolder::describe() const {
  std::string text = pid > 0 ? "process " + std::to_string(pid) : std::string("a process");
  if (!program.empty()) text += " (" + program + ")";
  if (!host.empty()) text += " on " + host;
  if (!since.empty()) text += ", since " + since;
  return text;
}

RunLock::~RunLock() {
  release();
}

RunLock::RunLock(RunLock&& other) noexcept : fd_(other.fd_) {
  other.fd_ = -1;
}

RunLock& RunLock::operator=(RunLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

void RunLock::release() {
  if (fd_ < 0) return;
  ::flock(fd_, LOCK_UN);
  ::close(fd_);
  fd_ = -1;
}

RunLock RunLock::acquire(const std::string& path, const std::string& what) {
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
  int fd = -1;
  try {
    // Never through a link or into a FIFO: the holder's lines below truncate the file.
    fd = openOwnFile(path, OwnFileUse::Lock);
  } catch (const std::runtime_error& error) {
    throw std::runtime_error("cannot lock " + what + " for writing: " + error.what());
  }
  // A reader probing the lock holds it shared for an instant: a few tries ride over that.
  for (int attempt = 0;; ++attempt) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) break;
    const int error = errno;
    if (error != EWOULDBLOCK || attempt >= 20) {
      LockHolder holder = error == EWOULDBLOCK ? readHolder(fd) : LockHolder{};
      ::close(fd);
      if (error != EWOULDBLOCK) {
        throw std::runtime_error("cannot lock " + what + " for writing: '" + path +
                                 "': " + std::strerror(error));
      }
      throw RunBusyError(what + " is being written by " + holder.describe() +
                             "; it has one writer at a time: wait for that to end, or stop it",
                         holder);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::ostringstream lines;
  lines << ::getpid() << "\n"
        << thisHost() << "\n"
        << thisProgram() << "\n"
        << utcTimestamp() << "\n";
  const std::string text = lines.str();
  // Best effort: the lock itself is what counts; the text only names the holder.
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] const ssize_t written = ::pwrite(fd, text.data(), text.size(), 0);
  }
  RunLock lock;
  lock.fd_ = fd;
  return lock;
}

std::optional<LockHolder> RunLock::holder(const std::string& path) {
  int fd = -1;
  try {
    fd = openOwnFile(path, OwnFileUse::Read);
  } catch (const std::runtime_error&) {
    return std::nullopt;  // no lock file (or none of ours): nobody holds it
  }
  std::optional<LockHolder> result;
  if (::flock(fd, LOCK_SH | LOCK_NB) == 0) {
    ::flock(fd, LOCK_UN);
  } else if (errno == EWOULDBLOCK) {
    result = readHolder(fd);
  }
  ::close(fd);
  return result;
}

}  // namespace mrnn::engine
