#include "engine/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mrnn::engine {
namespace {

[[noreturn]] void failWith(const std::string& what, const std::string& path, int error) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(error));
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& contents) {
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

std::string readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) failWith("cannot open", path, errno);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) failWith("cannot read", path, errno);
  return buffer.str();
}

}  // namespace mrnn::engine
