#include "engine/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>

#include "engine/io/own_file.h"

namespace mrnn::engine {
namespace {

[[noreturn]] void failWith(const std::string& what, const std::string& path, int error) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(error));
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
                        std::string("it is ") + describeFileKind(status.st_mode) + ", not a file");
  }
  return fd;
}

constexpr const char* kTemporaryMark = ".tmp-";
constexpr size_t kTemporaryLetters = 8;

std::string temporaryNameBeside(const std::string& path) {
  // ".tmp-" marks a leftover that RunCatalogue clears; the suffix only has to be unlikely.
  static std::atomic<uint64_t> counter{0};
  static const uint64_t seed = std::random_device{}();
  uint64_t value = seed ^ (static_cast<uint64_t>(::getpid()) << 20) ^ counter.fetch_add(1);
  value *= 0x9E3779B97F4A7C15ULL;
  static const char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string name = path + kTemporaryMark;
  for (size_t i = 0; i < kTemporaryLetters; ++i, value /= 36) name += kLetters[value % 36];
  return name;
}

// The rename is durable only once the folder's entry is on disk too.
void syncFolderOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "."
                             : slash == 0               ? "/"
                                                        : path.substr(0, slash);
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

bool isTemporaryOf(const std::string& name, const std::string& target) {
  // Earlier builds' temporaries (mkstemp's) had six letters: they are recognised too.
  const std::string prefix = target + kTemporaryMark;
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

void writeFileAtomically(const std::string& path, const std::string& contents) {
  // rename(2) would replace a link, device or FIFO with a regular file: never do that.
  struct stat status {};
  const bool replacing = ::lstat(path.c_str(), &status) == 0;
  if (replacing && !S_ISREG(status.st_mode)) {
    throw std::runtime_error("cannot replace '" + path + "': it is " +
                             describeFileKind(status.st_mode) + ", and is left as it is");
  }
  // The rename only needs the folder writable; the file's own mode says whether its owner
  // lets it change (root passes access(), so no write bit at all counts as read-only too).
  if (replacing && (::access(path.c_str(), W_OK) != 0 || (status.st_mode & 0222) == 0)) {
    throw std::runtime_error("cannot replace '" + path +
                             "': it is read-only, and is left as it is");
  }
  int fd = -1;
  std::string temp;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temp = temporaryNameBeside(path);
    // 0666 through the umask, as any new file; a replaced file keeps its own mode below.
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
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
  if (replacing) {
    // Keep the owner, group and mode the user gave the file (a private 0600 project stays
    // private). chown succeeds only for root; anyone else owns what they write already.
    const bool ownerKept = ::fchown(fd, status.st_uid, status.st_gid) == 0;
    static_cast<void>(ownerKept);
    ::fchmod(fd, status.st_mode & 07777);
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    failWith("cannot flush", path, error);
  }
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
  syncFolderOf(path);
}

namespace {

// Reads up to `size` bytes from `fd` at its offset, then closes it; fewer when it shrank.
std::string readAndClose(int fd, uint64_t size, const std::string& path) {
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

}  // namespace

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
  return readAndClose(fd, size, path);
}

std::string readFileTail(const std::string& path, uint64_t maxBytes) {
  struct stat status {};
  const int fd = openRegularFile(path, status);
  const auto size = static_cast<uint64_t>(status.st_size);
  const uint64_t start = size > maxBytes ? size - maxBytes : 0;
  if (::lseek(fd, static_cast<off_t>(start), SEEK_SET) < 0) {
    const int error = errno;
    ::close(fd);
    failReading("cannot read", path, error);
  }
  return readAndClose(fd, size - start, path);
}

void requireRegularFile(const std::string& path) {
  struct stat status {};
  ::close(openRegularFile(path, status));
}

}  // namespace mrnn::engine
