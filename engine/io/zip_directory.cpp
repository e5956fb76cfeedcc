#include "engine/io/zip_directory.h"

#include "engine/io/zip_records.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <set>
#include <stdexcept>

namespace mrnn::engine {
namespace {

// The records' fixed sizes and signatures (PKWARE's APPNOTE, sections 4.3.7 to 4.3.16).
constexpr uint32_t kEndSignature = 0x06054b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kDirectorySignature = 0x02014b50;
constexpr uint32_t kLocalSignature = 0x04034b50;
constexpr size_t kEndSize = 22;
constexpr size_t kZip64LocatorSize = 20;
constexpr size_t kZip64EndSize = 56;
constexpr size_t kDirectoryHeaderSize = 46;
constexpr size_t kLocalHeaderSize = 30;
constexpr size_t kLongestComment = 0xffff;
constexpr uint32_t kSize32Unknown = 0xffffffff;
constexpr uint16_t kMaskedDirectoryFlag = 1u << 13;

uint64_t little(const std::string& bytes, size_t offset, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    value |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  }
  return value;
}

[[noreturn]] void damaged(const std::string& what) {
  throw std::runtime_error(what);
}

std::string readExactly(const ZipReadAt& readAt, uint64_t offset, size_t length, const char* what) {
  std::string bytes = readAt(offset, length);
  if (bytes.size() != length) damaged(std::string("its ") + what + " is cut off");
  return bytes;
}

struct DirectoryExtent {
  uint64_t entries = 0;
  uint64_t size = 0;
  uint64_t offset = 0;
};

// Where the end record starts: the last signature whose record fits before the file's end.
uint64_t findEndRecord(uint64_t archiveSize, const ZipReadAt& readAt) {
  if (archiveSize < kEndSize) damaged("it is too short to be a zip archive");
  const uint64_t searched = std::min<uint64_t>(archiveSize, kEndSize + kLongestComment);
  const uint64_t start = archiveSize - searched;
  const std::string tail = readExactly(readAt, start, searched, "end");
  for (uint64_t at = searched - kEndSize + 1; at-- > 0;) {
    if (little(tail, at, 4) == kEndSignature) return start + at;
  }
  damaged("its zip directory end record is missing (the end of the file is damaged or cut off)");
}

DirectoryExtent readZip64Extent(const ZipReadAt& readAt, uint64_t locatorAt) {
  const std::string locator =
      readExactly(readAt, locatorAt, kZip64LocatorSize, "zip64 directory locator");
  const uint64_t recordAt = little(locator, 8, 8);
  if (recordAt > locatorAt || locatorAt - recordAt < kZip64EndSize) {
    damaged("its zip64 directory locator points outside the file");
  }
  const std::string record = readExactly(readAt, recordAt, kZip64EndSize, "zip64 end record");
  if (little(record, 0, 4) != kZip64EndSignature) damaged("its zip64 end record is damaged");
  if (little(record, 16, 4) != 0 || little(record, 20, 4) != 0 ||
      little(record, 24, 8) != little(record, 32, 8)) {
    damaged("it spans several disks, which no reader here supports");
  }
  return {little(record, 32, 8), little(record, 40, 8), little(record, 48, 8)};
}

DirectoryExtent readExtent(uint64_t archiveSize, const ZipReadAt& readAt) {
  const uint64_t endAt = findEndRecord(archiveSize, readAt);
  const std::string end = readExactly(readAt, endAt, kEndSize, "end record");
  if (endAt >= kZip64LocatorSize) {
    const uint64_t locatorAt = endAt - kZip64LocatorSize;
    if (little(readExactly(readAt, locatorAt, 4, "zip64 directory locator"), 0, 4) ==
        kZip64LocatorSignature) {
      return readZip64Extent(readAt, locatorAt);
    }
  }
  if (little(end, 4, 2) != 0 || little(end, 6, 2) != 0 || little(end, 8, 2) != little(end, 10, 2)) {
    damaged("it spans several disks, which no reader here supports");
  }
  return {little(end, 10, 2), little(end, 12, 4), little(end, 16, 4)};
}

// Reads one entry's zip64 extra field: the 64-bit values stand in, in this order, for each
// 32-bit field that holds 0xffffffff.
void readZip64Sizes(const std::string& extra, ZipEntry& entry, bool sizeUnknown,
                    bool compressedUnknown, bool offsetUnknown) {
  for (size_t at = 0; at + 4 <= extra.size();) {
    const uint64_t id = little(extra, at, 2);
    const uint64_t length = little(extra, at + 2, 2);
    if (at + 4 + length > extra.size()) damaged("an entry's extra field is damaged");
    if (id == 1) {
      size_t field = at + 4;
      auto next = [&](uint64_t& value) {
        if (field + 8 > at + 4 + length) damaged("an entry's zip64 field is too short");
        value = little(extra, field, 8);
        field += 8;
      };
      if (sizeUnknown) next(entry.size);
      if (compressedUnknown) next(entry.compressedSize);
      if (offsetUnknown) next(entry.localHeaderOffset);
      return;
    }
    at += 4 + length;
  }
  damaged("an entry gives no size and no zip64 field");
}

ZipEntry readEntry(const std::string& directory, size_t& at, uint64_t archiveSize) {
  if (directory.size() - at < kDirectoryHeaderSize ||
      little(directory, at, 4) != kDirectorySignature) {
    damaged("its zip directory is damaged (an entry's header is missing)");
  }
  const size_t nameLength = little(directory, at + 28, 2);
  const size_t extraLength = little(directory, at + 30, 2);
  const size_t commentLength = little(directory, at + 32, 2);
  const size_t headerSize = kDirectoryHeaderSize + nameLength + extraLength + commentLength;
  if (directory.size() - at < headerSize) damaged("its zip directory is cut off inside an entry");
  if (little(directory, at + 8, 2) & kMaskedDirectoryFlag)
    damaged("its zip directory is encrypted");
  ZipEntry entry;
  entry.flags = static_cast<uint16_t>(little(directory, at + 8, 2));
  entry.method = static_cast<uint16_t>(little(directory, at + 10, 2));
  entry.crc32 = static_cast<uint32_t>(little(directory, at + 16, 4));
  entry.compressedSize = little(directory, at + 20, 4);
  entry.size = little(directory, at + 24, 4);
  entry.externalAttributes = static_cast<uint32_t>(little(directory, at + 38, 4));
  entry.localHeaderOffset = little(directory, at + 42, 4);
  entry.name = directory.substr(at + kDirectoryHeaderSize, nameLength);
  const bool sizeUnknown = entry.size == kSize32Unknown;
  const bool compressedUnknown = entry.compressedSize == kSize32Unknown;
  const bool offsetUnknown = entry.localHeaderOffset == kSize32Unknown;
  if (sizeUnknown || compressedUnknown || offsetUnknown) {
    readZip64Sizes(directory.substr(at + kDirectoryHeaderSize + nameLength, extraLength), entry,
                   sizeUnknown, compressedUnknown, offsetUnknown);
  }
  if ((entry.method == 0 && entry.size != entry.compressedSize) ||
      (entry.size != 0 && entry.compressedSize == 0)) {
    damaged("its entry '" + entry.name + "' gives sizes that contradict each other");
  }
  if (entry.localHeaderOffset > archiveSize ||
      archiveSize - entry.localHeaderOffset < kLocalHeaderSize + entry.compressedSize) {
    damaged("its entry '" + entry.name + "' lies beyond the end of the file");
  }
  at += headerSize;
  return entry;
}

constexpr uint32_t kFolderAttribute = 0x10;

// A version record holds a number and a line break; anything long is not one.
constexpr uint64_t kLongestVersionRecord = 64;

bool sameIgnoringCase(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::vector<const ZipEntry*> entriesNamed(const std::vector<ZipEntry>& entries,
                                          const std::string& name) {
  std::vector<const ZipEntry*> found;
  for (const ZipEntry& entry : entries) {
    if (sameIgnoringCase(entry.name, name)) found.push_back(&entry);
  }
  return found;
}

}  // namespace

uint64_t zipEntryDataOffset(uint64_t archiveSize, const ZipReadAt& readAt, const ZipEntry& entry) {
  const std::string header =
      readExactly(readAt, entry.localHeaderOffset, kLocalHeaderSize, "local header");
  if (little(header, 0, 4) != kLocalSignature) {
    damaged("its entry '" + entry.name + "' has no local header where the directory says");
  }
  const uint64_t dataAt =
      entry.localHeaderOffset + kLocalHeaderSize + little(header, 26, 2) + little(header, 28, 2);
  if (dataAt > archiveSize || archiveSize - dataAt < entry.compressedSize) {
    damaged("its entry '" + entry.name + "' lies beyond the end of the file");
  }
  return dataAt;
}

std::vector<ZipEntry> readZipDirectory(uint64_t archiveSize, const ZipReadAt& readAt) {
  const DirectoryExtent extent = readExtent(archiveSize, readAt);
  if (extent.offset > archiveSize || archiveSize - extent.offset < extent.size) {
    damaged("its zip directory lies beyond the end of the file");
  }
  if (extent.entries > extent.size / kDirectoryHeaderSize) {
    damaged("its zip directory is shorter than the entries it counts");
  }
  const std::string directory =
      readExactly(readAt, extent.offset, static_cast<size_t>(extent.size), "zip directory");
  std::vector<ZipEntry> entries;
  entries.reserve(static_cast<size_t>(extent.entries));
  size_t at = 0;
  for (uint64_t i = 0; i < extent.entries; ++i)
    entries.push_back(readEntry(directory, at, archiveSize));
  return entries;
}

std::string torchArchiveProblem(uint64_t archiveSize, const ZipReadAt& readAt,
                                uint64_t maxVersion) {
  try {
    const std::vector<ZipEntry> entries = readZipDirectory(archiveSize, readAt);
    if (entries.empty()) return "its zip archive holds no files";
    // Stored or deflated, as every PyTorch writes: LibTorch refuses other methods only when it
    // reads the file, leaking its reader.
    for (const ZipEntry& entry : entries) {
      if (entry.method != 0 && entry.method != 8) {
        return "its file '" + entry.name + "' uses compression method " +
               std::to_string(entry.method) + ", which no PyTorch writes";
      }
      if ((entry.flags & (0x01 | 0x20 | 0x40)) != 0) {
        return "its file '" + entry.name + "' is encrypted or patched, which no PyTorch writes";
      }
      // LibTorch's zip library takes an entry with the folder attribute for a folder and
      // "reads" nothing into the buffer it made for the file's contents.
      if ((entry.externalAttributes & kFolderAttribute) != 0 &&
          (entry.name.empty() || entry.name.back() != '/')) {
        return "its file '" + entry.name + "' is marked as a folder, which no PyTorch writes";
      }
    }
    std::set<std::string> names;
    for (const ZipEntry& entry : entries) {
      // LibTorch looks names up as C strings: a NUL inside one makes it look for another.
      if (entry.name.find('\0') != std::string::npos) return "a file's name holds a NUL byte";
      // ... and regardless of case, so two files of one name leave it to chance which is read.
      std::string lower = entry.name;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!names.insert(lower).second) return "it holds two files named '" + entry.name + "'";
    }
    const std::string& first = entries.front().name;
    const size_t slash = first.find('/');
    if (slash == std::string::npos) return "its first file '" + first + "' is not in a folder";
    const std::string folder = first.substr(0, slash + 1);
    // The record LibTorch's reader reads (its zip library matches names regardless of case,
    // ".data/version" first), which must read and parse as it will, else the reader leaks.
    std::vector<const ZipEntry*> version = entriesNamed(entries, folder + ".data/version");
    if (version.empty()) version = entriesNamed(entries, folder + "version");
    if (version.empty()) return "it has no version record";
    if (version.size() > 1) return "it has " + std::to_string(version.size()) + " version records";
    ZipRecords zip(archiveSize, readAt);
    const std::string text = zip.read(*version.front(), kLongestVersionRecord);
    const auto digit =
        std::find_if_not(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); });
    if (digit == text.end() || !std::isdigit(static_cast<unsigned char>(*digit))) {
      return "its version record is not a number";
    }
    const std::string digits(digit, std::find_if_not(digit, text.end(), [](unsigned char c) {
                               return std::isdigit(c);
                             }));
    if (digits.size() > 18 || std::stoull(digits) > maxVersion) {
      return "it is format version " + digits + ", newer than the " + std::to_string(maxVersion) +
             " this build reads (written by a newer PyTorch?)";
    }
    // Version 1 is the first any PyTorch wrote; LibTorch refuses a 0, leaking its reader.
    if (std::stoull(digits) < 1) {
      return "it is format version " + digits + ", which no PyTorch writes";
    }
    return {};
  } catch (const std::runtime_error& error) {
    return error.what();
  }
}

std::string torchArchiveProblem(const std::string& archive, uint64_t maxVersion) {
  return torchArchiveProblem(
      archive.size(),
      [&](uint64_t offset, size_t length) {
        if (offset >= archive.size()) return std::string();
        return archive.substr(static_cast<size_t>(offset), length);
      },
      maxVersion);
}

ZipFile openZipFile(const std::string& path) {
  auto file = std::make_shared<std::ifstream>(path, std::ios::binary | std::ios::ate);
  if (!*file) throw std::runtime_error("it cannot be opened");
  ZipFile zip;
  zip.size = static_cast<uint64_t>(file->tellg());
  zip.readAt = [file](uint64_t offset, size_t length) {
    std::string bytes(length, '\0');
    file->clear();
    file->seekg(static_cast<std::streamoff>(offset));
    file->read(bytes.data(), static_cast<std::streamsize>(length));
    bytes.resize(static_cast<size_t>(std::max<std::streamsize>(file->gcount(), 0)));
    return bytes;
  };
  return zip;
}

std::string torchArchiveFileProblem(const std::string& path, uint64_t maxVersion) {
  try {
    const ZipFile zip = openZipFile(path);
    return torchArchiveProblem(zip.size, zip.readAt, maxVersion);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
}

}  // namespace mrnn::engine
