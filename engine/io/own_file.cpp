#include "engine/io/own_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace mrnn::engine {

const char* describeFileKind(unsigned mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

namespace {

[[noreturn]] void refuse(const std::string& path, unsigned mode) {
  throw std::runtime_error("cannot open '" + path + "': it is " + describeFileKind(mode) +
                           ", not a file the workbench keeps; it is left as it is: move it away");
}

[[noreturn]] void fail(const std::string& path, int error) {
  throw std::runtime_error("cannot open '" + path + "': " + std::strerror(error));
}

}  // namespace

int openOwnFile(const std::string& path, OwnFileUse use) {
  const int access = use == OwnFileUse::Lock     ? O_RDWR | O_CREAT
                     : use == OwnFileUse::Append ? O_WRONLY | O_CREAT | O_APPEND
                                                 : O_RDONLY;
  // O_NOFOLLOW: a link at the name is never written through; O_NONBLOCK: a FIFO there is
  // never waited on (it is refused below). Neither matters for the regular file expected.
  const int fd = ::open(path.c_str(), access | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  struct stat status {};
  if (fd < 0) {
    const int error = errno;
    // ELOOP is O_NOFOLLOW's answer for a link, ENXIO a FIFO's with no reader, EISDIR a folder's.
    if (::lstat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
      refuse(path, status.st_mode);
    }
    fail(path, error);
  }
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    fail(path, error);
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd);
    refuse(path, status.st_mode);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace mrnn::engine
