#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mrnn::engine {

// Writes `contents` to `path` so that readers see either the old file or the complete new
// one, never a torn write: a temporary file beside the target, flushed to disk, then
// renamed over it. Throws std::runtime_error naming the path and the system's reason
// (for example "No space left on device"); on failure the old file is untouched and the
// temporary is removed. A symbolic link, device, FIFO or folder at `path` is refused (renaming
// would replace it), and so is a read-only file, before anything is written. A replaced file
// keeps its mode, owner and group; a new one gets 0666 less the umask, as any new file.
void writeFileAtomically(const std::string& path, const std::string& contents);

// Whether `name` (a file name, no folder) is the temporary writeFileAtomically gives a save of
// `target` (also a name): "<target>.tmp-" and letters or digits. One left behind means its
// process died mid-save.
bool isTemporaryOf(const std::string& name, const std::string& target);

// What a text file the workbench reads whole (a project, experiment, mapping, vocabulary or
// description) may hold: far more than any real one.
inline constexpr uint64_t kMaxTextFileBytes = uint64_t{64} << 20;

// Why a file could not be read. what() names it ("cannot open 'p': No such file or
// directory"); reason() does not ("cannot open: No such file or directory"), for a message
// that names the file already (a ConfigError's "p: ...").
class FileReadError : public std::runtime_error {
 public:
  FileReadError(const std::string& path, const std::string& action, const std::string& detail)
      : std::runtime_error(action + " '" + path + "': " + detail),
        reason_(action + ": " + detail) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// Reads a whole regular file of at most `maxBytes`; throws FileReadError when it cannot, when
// it is larger, or when it is no regular file (a FIFO, device or folder is refused without
// waiting on it or reading from it).
std::string readWholeFile(const std::string& path, uint64_t maxBytes = kMaxTextFileBytes);

// The last `maxBytes` of a regular file (all of it when it is smaller), for a log whose end is
// what is read: a long training's log is read no further than that. Throws like readWholeFile.
std::string readFileTail(const std::string& path, uint64_t maxBytes);

// Throws like readWholeFile (FileReadError) when `path` is not a regular file that can be
// opened.
void requireRegularFile(const std::string& path);

}  // namespace mrnn::engine
