#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/io/zip_directory.h"

namespace mrnn::engine {

// The files of a zip archive on disk, read by the engine itself: the directory by
// readZipDirectory, each file through its local header, inflated (deflate) or copied
// (stored) to exactly the size the directory gives, and checked against its CRC-32.
// A foreign archive (torch.save's) is read this way rather than by LibTorch's reader,
// which leaks on many damaged archives it refuses; memory stays in proportion to what the
// caller asks for, never to what a record claims. Every problem throws std::runtime_error
// with one clause naming it, without the archive's name (the caller adds that).
class ZipRecords {
 public:
  // An archive of `size` bytes read through `readAt` (zip_directory.h).
  ZipRecords(uint64_t size, ZipReadAt readAt);
  // The archive in the file at `path`.
  static ZipRecords inFile(const std::string& path);
  // The archive held in `bytes`, which must outlive the reader.
  static ZipRecords inMemory(const std::string& bytes);

  const std::vector<ZipEntry>& entries() const { return entries_; }
  // The entry named `name`, or null.
  const ZipEntry* find(const std::string& name) const;
  // The file's contents; `maxBytes` bounds what is read (a larger entry is refused).
  std::string read(const ZipEntry& entry, uint64_t maxBytes);

 private:
  uint64_t size_ = 0;
  ZipReadAt readAt_;
  std::vector<ZipEntry> entries_;
};

}  // namespace mrnn::engine
