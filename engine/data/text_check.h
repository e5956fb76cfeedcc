#pragma once

// Internal to engine/data: the errors of text that is not text.

#include <cstdint>

namespace mrnn::engine {

class MappedFile;

// Throws DataError for the byte at `offset`: a NUL (binary data read as text) or the start of
// an invalid UTF-8 sequence. Names the file and the byte offset.
[[noreturn]] void throwNotText(const MappedFile& file, int64_t offset);

// Throws DataError: a ptb-char symbol at `offset` that is more than one character.
[[noreturn]] void throwLongPtbSymbol(const MappedFile& file, int64_t offset);

// How often a sequential pass lets go of the pages it has read (MappedFile::releaseBefore).
constexpr int64_t kReleaseChunk = int64_t{16} << 20;

}  // namespace mrnn::engine
