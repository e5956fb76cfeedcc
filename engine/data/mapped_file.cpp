#include "engine/data/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "engine/data/data_error.h"
#include "engine/data/shrink_guard.h"

namespace mrnn::engine {

MappedFile::MappedFile(const std::string& path) : path_(path) {
  // O_NONBLOCK: a FIFO is refused below instead of waiting for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) throw DataError(path + ": no such file");
    throw DataError(path + ": cannot open: " + std::strerror(error));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw DataError(path +
                    ": not a regular file (a corpus is read from a file, not a FIFO, "
                    "device or folder)");
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
    guard_ = std::make_unique<ShrinkGuard>(data_, size_);
  }
  ::close(fd);  // the mapping keeps the file open
}

MappedFile::MappedFile(const std::vector<std::string>& paths) : joined_(true) {
  if (paths.empty()) throw DataError("no corpus files given");
  path_ = paths.front();
  if (paths.size() > 1) path_ += " (and " + std::to_string(paths.size() - 1) + " more files)";
  // Each file is mapped in turn and copied: the join costs one copy of the text.
  std::vector<std::unique_ptr<MappedFile>> files;
  int64_t total = 0;
  for (const std::string& path : paths) {
    files.push_back(std::make_unique<MappedFile>(path));
    const MappedFile& file = *files.back();
    total += file.size() + (file.size() > 0 && file.data()[file.size() - 1] != '\n' ? 1 : 0);
  }
  size_ = total;
  if (size_ > 0) {
    void* memory = ::mmap(nullptr, static_cast<size_t>(size_), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      throw DataError(path_ + ": cannot hold the files in memory (" + std::to_string(size_) +
                      " bytes): " + std::strerror(errno));
    }
    data_ = static_cast<uint8_t*>(memory);
  }
  int64_t offset = 0;
  for (const auto& file : files) {
    parts_.emplace_back(offset, file->path());
    if (file->size() == 0) continue;
    std::memcpy(data_ + offset, file->data(), static_cast<size_t>(file->size()));
    if (file->shrank()) {
      // A piece that shrank under the copy left zeros in the join. The destructor does not
      // run for a constructor that throws: the memory goes first.
      ::munmap(data_, static_cast<size_t>(size_));
      data_ = nullptr;
      file->checkUnchanged();
    }
    offset += file->size();
    if (file->data()[file->size() - 1] != '\n') data_[offset++] = '\n';
  }
  if (data_ != nullptr) ::mprotect(data_, static_cast<size_t>(size_), PROT_READ);
}

std::pair<std::string, int64_t> MappedFile::locate(int64_t offset) const {
  if (parts_.empty()) return {path_, offset};
  auto part = parts_.begin();
  for (auto next = parts_.begin(); next != parts_.end() && next->first <= offset; ++next) {
    part = next;
  }
  return {part->second, offset - part->first};
}

MappedFile::~MappedFile() {
  guard_.reset();  // stop watching before the range can be mapped again
  if (data_ != nullptr) ::munmap(data_, static_cast<size_t>(size_));
}

bool MappedFile::shrank() const {
  return guard_ != nullptr && guard_->shrank();
}

void MappedFile::checkStop() const {
  if (stop_ && stop_()) throw ReadingStopped();
}

void MappedFile::checkUnchanged() const {
  if (!shrank()) return;
  struct stat info {};
  const std::string now = ::stat(path_.c_str(), &info) == 0
                              ? std::to_string(info.st_size) + " bytes now"
                              : std::string("gone now");
  throw DataError(path_ + ": the file shrank while it was being read (" + std::to_string(size_) +
                  " bytes when it was opened, " + now +
                  "); a corpus must stay unchanged while a run reads it");
}

void MappedFile::releaseBefore(int64_t offset) const {
  // Dropped anonymous pages would come back as zeros, not as the text.
  if (joined_) return;
  static const int64_t page = ::sysconf(_SC_PAGESIZE);
  const int64_t end = std::min(offset, size_) / page * page;
  // Advice only: a failure leaves the pages resident, which is harmless.
  if (end > 0) ::madvise(data_, static_cast<size_t>(end), MADV_DONTNEED);
}

}  // namespace mrnn::engine
