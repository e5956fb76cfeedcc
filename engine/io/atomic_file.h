#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

// Writes `contents` to `path` so that readers see either the old file or the complete new
// one, never a torn write: a temporary file beside the target, flushed to disk, then
// renamed over it. Throws std::runtime_error naming the path and the system's reason
// (for example "No space left on device"); on failure the old file is untouched and the
// temporary is removed. A symbolic link, device, FIFO or folder at `path` is refused (renaming
// would replace it), before anything is written.
void writeFileAtomically(const std::string& path, const std::string& contents);

// What a text file the workbench reads whole (a project, experiment, mapping, vocabulary or
// description) may hold: far more than any real one.
inline constexpr uint64_t kMaxTextFileBytes = uint64_t{64} << 20;

// Reads a whole regular file of at most `maxBytes`; throws std::runtime_error naming the path
// when it cannot, when it is larger, or when it is no regular file (a FIFO, device or folder
// is refused without waiting on it or reading from it).
std::string readWholeFile(const std::string& path, uint64_t maxBytes = kMaxTextFileBytes);

// Throws like readWholeFile when `path` is not a regular file that can be opened.
void requireRegularFile(const std::string& path);

}  // namespace mrnn::engine
