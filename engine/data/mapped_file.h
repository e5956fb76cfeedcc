#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mrnn::engine {

class ShrinkGuard;

// Whether whoever reads a file has been asked to stop (a command's Ctrl-C, the GUI's Stop).
using StopCheck = std::function<bool()>;

// A read-only memory map of a whole file. Corpora are read through it so that a large file
// never needs a second copy in memory: byte-level token streams use the mapping itself, and
// the char/word readers decode straight from it.
class MappedFile {
 public:
  // Throws DataError naming the file when it is missing, not a regular file or unreadable.
  // An empty file maps to size() == 0 (mmap refuses zero lengths).
  explicit MappedFile(const std::string& path);
  // Several files joined into one read-only buffer in memory, in order, with a line break
  // after a file that lacks one (a corpus kept in pieces). path() names the first and says
  // how many follow; locate() finds the file an offset falls in.
  explicit MappedFile(const std::vector<std::string>& paths);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::string& path() const { return path_; }
  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  std::string_view view() const {
    return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)};
  }

  // Drops the pages of [0, offset) from this process's resident set after a sequential pass
  // (they come back from the page cache on the next touch), so that scanning a 100 MB file
  // does not keep 100 MB resident next to the ids decoded from it.
  void releaseBefore(int64_t offset) const;

  // The readers' passes ask between chunks of kReleaseChunk bytes, so that a stop asked while
  // a large corpus is read is honoured within a fraction of a second: checkStop() throws
  // ReadingStopped once `stop` says so. Set before the file is shared.
  void setStopCheck(StopCheck stop) { stop_ = std::move(stop); }
  void checkStop() const;

  // A file truncated by another process while mapped reads as zeros past its new end rather
  // than killing the process (ShrinkGuard); readers call checkUnchanged() after reading.
  bool shrank() const;
  // Throws DataError naming the file and both sizes when it shrank; otherwise does nothing.
  void checkUnchanged() const;

  // The file and the offset inside it of byte `offset` of the mapping, for error messages.
  std::pair<std::string, int64_t> locate(int64_t offset) const;

 private:
  std::string path_;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  std::unique_ptr<ShrinkGuard> guard_;  // file mappings only
  bool joined_ = false;  // anonymous memory: its pages cannot be dropped and read back
  std::vector<std::pair<int64_t, std::string>> parts_;  // joined files: where each begins
  StopCheck stop_;
};

}  // namespace mrnn::engine
