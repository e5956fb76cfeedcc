#include "engine/io/zip_records.h"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>

namespace mrnn::engine {
namespace {

constexpr uint16_t kEncryptedOrPatched = 0x01 | 0x20 | 0x40;

[[noreturn]] void refuse(const ZipEntry& entry, const std::string& what) {
  throw std::runtime_error("its file '" + entry.name + "' " + what);
}

uint32_t crc32Of(const std::string& bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
  for (size_t at = 0; at < bytes.size();) {
    const size_t chunk = std::min<size_t>(bytes.size() - at, std::numeric_limits<uInt>::max());
    crc = crc32(crc, data + at, static_cast<uInt>(chunk));
    at += chunk;
  }
  return static_cast<uint32_t>(crc);
}

// Raw deflate into exactly `size` bytes: more or fewer is damage, not a larger allocation.
std::string inflateExactly(const ZipEntry& entry, const std::string& compressed, size_t size) {
  constexpr size_t kChunk = std::numeric_limits<uInt>::max();
  std::string out(size, '\0');
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) refuse(entry, "cannot be inflated here");
  const auto* in = reinterpret_cast<const Bytef*>(compressed.data());
  auto* to = reinterpret_cast<Bytef*>(out.data());
  size_t inGiven = 0;
  size_t outGiven = 0;
  unsigned char beyond = 0;  // where output past `size` would go: its use is the damage
  bool overflowed = false;
  int status = Z_OK;
  while (status == Z_OK) {
    if (stream.avail_in == 0 && inGiven < compressed.size()) {
      stream.next_in = const_cast<Bytef*>(in + inGiven);
      stream.avail_in = static_cast<uInt>(std::min(compressed.size() - inGiven, kChunk));
      inGiven += stream.avail_in;
    }
    if (stream.avail_out == 0) {
      if (stream.next_out == &beyond + 1) {
        overflowed = true;
        break;
      }
      if (outGiven < size) {
        stream.next_out = to + outGiven;
        stream.avail_out = static_cast<uInt>(std::min(size - outGiven, kChunk));
        outGiven += stream.avail_out;
      } else {
        stream.next_out = &beyond;
        stream.avail_out = 1;
      }
    }
    status = inflate(&stream, Z_NO_FLUSH);
  }
  const bool whole = status == Z_STREAM_END && !overflowed && stream.next_out != &beyond + 1 &&
                     stream.total_out == size;
  inflateEnd(&stream);
  if (!whole) {
    refuse(entry, "is damaged: its compressed data do not inflate to the " + std::to_string(size) +
                      " bytes its directory gives");
  }
  return out;
}

}  // namespace

ZipRecords::ZipRecords(uint64_t size, ZipReadAt readAt)
    : size_(size), readAt_(std::move(readAt)), entries_(readZipDirectory(size_, readAt_)) {}

ZipRecords ZipRecords::inFile(const std::string& path) {
  ZipFile file = openZipFile(path);
  return ZipRecords(file.size, std::move(file.readAt));
}

ZipRecords ZipRecords::inMemory(const std::string& bytes) {
  return ZipRecords(bytes.size(), [&bytes](uint64_t offset, size_t length) {
    if (offset >= bytes.size()) return std::string();
    return bytes.substr(static_cast<size_t>(offset), length);
  });
}

const ZipEntry* ZipRecords::find(const std::string& name) const {
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const ZipEntry& entry) { return entry.name == name; });
  return it == entries_.end() ? nullptr : &*it;
}

std::string ZipRecords::read(const ZipEntry& entry, uint64_t maxBytes) {
  if ((entry.flags & kEncryptedOrPatched) != 0) refuse(entry, "is encrypted or patched");
  if (entry.method != 0 && entry.method != 8) {
    refuse(entry, "uses compression method " + std::to_string(entry.method) +
                      ", which this reader does not inflate");
  }
  if (entry.size > maxBytes) {
    refuse(entry, "holds " + std::to_string(entry.size) + " bytes, more than the " +
                      std::to_string(maxBytes) + " expected");
  }
  // Deflate never needs much more than the data's own size (stored blocks: 5 bytes in 65,535).
  if (entry.compressedSize > entry.size + entry.size / 8192 + 1024) {
    refuse(entry, "is damaged: " + std::to_string(entry.compressedSize) + " compressed bytes for " +
                      std::to_string(entry.size));
  }
  const uint64_t dataAt = zipEntryDataOffset(size_, readAt_, entry);
  std::string stored = readAt_(dataAt, static_cast<size_t>(entry.compressedSize));
  if (stored.size() != entry.compressedSize) refuse(entry, "is cut off");
  std::string contents = entry.method == 0
                             ? std::move(stored)
                             : inflateExactly(entry, stored, static_cast<size_t>(entry.size));
  if (crc32Of(contents) != entry.crc32) {
    refuse(entry, "is damaged: its contents do not match their checksum (CRC-32)");
  }
  return contents;
}

}  // namespace mrnn::engine
