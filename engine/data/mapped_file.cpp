#include "engine/data/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/data/data_error.h"

namespace mrnn::engine {

MappedFile::MappedFile(const std::string& path) : path_(path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) throw DataError(path + ": no such file");
    throw DataError(path + ": cannot open: " + std::strerror(error));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw DataError(path + ": not a regular file");
  }
  size_ = static_cast<int64_t>(info.st_size);
  if (size_ > 0) {
    void* mapped = ::mmap(nullptr, static_cast<size_t>(size_), PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
      const int error = errno;
      ::close(fd);
      throw DataError(path + ": cannot map into memory: " + std::strerror(error));
    }
    data_ = static_cast<uint8_t*>(mapped);
  }
  ::close(fd);  // the mapping keeps the file open
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(data_, static_cast<size_t>(size_));
}

void MappedFile::releaseBefore(int64_t offset) const {
  static const int64_t page = ::sysconf(_SC_PAGESIZE);
  const int64_t end = std::min(offset, size_) / page * page;
  // Advice only: a failure leaves the pages resident, which is harmless.
  if (end > 0) ::madvise(data_, static_cast<size_t>(end), MADV_DONTNEED);
}

}  // namespace mrnn::engine
