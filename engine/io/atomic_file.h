#pragma once

#include <string>

namespace mrnn::engine {

// Writes `contents` to `path` so that readers see either the old file or the complete new
// one, never a torn write: a temporary file beside the target, flushed to disk, then
// renamed over it. Throws std::runtime_error naming the path and the system's reason
// (for example "No space left on device"); on failure the old file is untouched and the
// temporary is removed.
void writeFileAtomically(const std::string& path, const std::string& contents);

// Reads a whole file; throws std::runtime_error naming the path when it cannot.
std::string readWholeFile(const std::string& path);

}  // namespace mrnn::engine
