#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mrnn::engine {

// One file of a zip archive, as its central directory lists it.
struct ZipEntry {
  std::string name;
  uint16_t method = 0;  // 0: stored, 8: deflated
  uint16_t flags = 0;   // the general purpose bits: 1 encrypted, 0x20 patched, 0x40 strong
  uint32_t externalAttributes = 0;  // the low byte's 0x10: MS-DOS's "this is a folder"
  uint32_t crc32 = 0;               // of the uncompressed contents
  uint64_t compressedSize = 0;
  uint64_t size = 0;
  uint64_t localHeaderOffset = 0;
};

// Returns `length` bytes of the archive from `offset`, or fewer where the archive ends.
using ZipReadAt = std::function<std::string(uint64_t offset, size_t length)>;

// Reads a zip archive's end record and central directory (zip64 included) and checks every
// bound a reader relies on. Throws std::runtime_error with one sentence saying what is
// damaged ("its zip directory end record is missing", ...), without the archive's name.
std::vector<ZipEntry> readZipDirectory(uint64_t archiveSize, const ZipReadAt& readAt);

// Where `entry`'s data start, after its local header (checked: its signature, and that the
// data fit in the archive). Throws std::runtime_error as readZipDirectory does.
uint64_t zipEntryDataOffset(uint64_t archiveSize, const ZipReadAt& readAt, const ZipEntry& entry);

// A zip archive in a file: its size and a reader of its bytes (kept open while a copy of
// `readAt` lives). Throws std::runtime_error("it cannot be opened").
struct ZipFile {
  uint64_t size = 0;
  ZipReadAt readAt;
};
ZipFile openZipFile(const std::string& path);

// What is wrong with a PyTorch archive (torch.save or a LibTorch OutputArchive), as one
// clause, or "" where its directory, its folder and its version record are sound (a version
// above `maxVersion`, when given, is a problem: the archive is newer than this LibTorch reads).
// LibTorch 1.13 leaks its zip reader when it refuses an archive while opening it, so the
// engine asks this first and refuses the archive itself.
std::string torchArchiveProblem(uint64_t archiveSize, const ZipReadAt& readAt,
                                uint64_t maxVersion = UINT64_MAX);

// The same for an archive held in memory, or one in a file.
std::string torchArchiveProblem(const std::string& archive, uint64_t maxVersion = UINT64_MAX);
std::string torchArchiveFileProblem(const std::string& path, uint64_t maxVersion = UINT64_MAX);

}  // namespace mrnn::engine
