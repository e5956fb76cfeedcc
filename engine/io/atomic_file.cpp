#include "engine/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace mrnn::engine {
namespace {

[[noreturn]] void failWith(const std::string& what, const std::string& path, int error) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(error));
}

const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void failReading(const std::string& what, const std::string& path, int error) {
  throw FileReadError(path, what, std::strerror(error));
}

int openRegularFile(const std::string& path, struct stat& status) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) failReading("cannot open", path, errno);
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    failReading("cannot read", path, error);
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd);
    throw FileReadError(path, "cannot read",
                        std::string("it is ") + fileKind(status.st_mode) + ", not a file");
  }
  return fd;
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& contents) {
  // rename(2) would replace a link, device or FIFO with a regular file: never do that.
  struct stat status {};
  if (::lstat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
    throw std::runtime_error("cannot replace '" + path + "': it is " +
                             (S_ISLNK(status.st_mode)   ? "a symbolic link"
                              : S_ISDIR(status.st_mode) ? "a folder"
                                                        : "not a regular file") +
                             ", and is left as it is");
  }
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) failWith("cannot create a temporary file beside", path, errno);

  const char* data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      failWith("cannot write", path, error);
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    failWith("cannot flush", path, error);
  }
  // mkstemp creates 0600; project files are ordinary documents.
  ::fchmod(fd, 0644);
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    failWith("cannot close", path, error);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    failWith("cannot replace", path, error);
  }
}

std::string readWholeFile(const std::string& path, uint64_t maxBytes) {
  struct stat status {};
  const int fd = openRegularFile(path, status);
  const auto size = static_cast<uint64_t>(status.st_size);
  if (size > maxBytes) {
    ::close(fd);
    throw FileReadError(path, "cannot read",
                        "it is " + std::to_string(size) + " bytes, more than the " +
                            std::to_string(maxBytes) + " such a file may hold");
  }
  std::string contents(static_cast<size_t>(size), '\0');
  size_t got = 0;
  while (got < contents.size()) {
    const ssize_t read = ::read(fd, contents.data() + got, contents.size() - got);
    if (read < 0 && errno == EINTR) continue;
    if (read < 0) {
      const int error = errno;
      ::close(fd);
      failReading("cannot read", path, error);
    }
    if (read == 0) break;  // it shrank since fstat: what is there
    got += static_cast<size_t>(read);
  }
  ::close(fd);
  contents.resize(got);
  return contents;
}

void requireRegularFile(const std::string& path) {
  struct stat status {};
  ::close(openRegularFile(path, status));
}

}  // namespace mrnn::engine
