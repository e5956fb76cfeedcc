#pragma once

#include <string>

namespace mrnn::engine {

// What a file the workbench keeps at a name of its own is opened for: a run's writer lock
// (read and written, created when absent), a queue's or trial's log (appended to, created when
// absent), or either of them read by someone watching.
enum class OwnFileUse { Lock, Append, Read };

// Opens the file at `path` that the workbench keeps under a name of its own (writer.lock,
// trial-3.log) and returns its descriptor (close-on-exec, blocking). Whatever else has come to
// be at that name (a symbolic link, a FIFO, a device, a folder) is refused before anything is
// written through it or waited on: throws std::runtime_error naming the path and what is there
// ("cannot open 'p': it is a symbolic link, not a file the workbench keeps; it is left as it
// is: move it away"), or the system's reason.
int openOwnFile(const std::string& path, OwnFileUse use);

// "a symbolic link", "a FIFO", "a device", "a folder", "a socket" or "not a regular file", for
// a message about something found where a file was expected. `mode` is a stat st_mode.
const char* describeFileKind(unsigned mode);

}  // namespace mrnn::engine
