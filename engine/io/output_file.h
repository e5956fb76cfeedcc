#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mrnn::engine {

// An output a command was asked to write and will not: what() is one sentence naming the path
// and why (a device, the file being read, a project's run database, ...). Nothing was written.
class OutputRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The rules an output path is checked against before anything is written.
struct OutputRules {
  // The files the command reads: never its output.
  std::vector<std::string> inputs;
  // Files and folders a project keeps (its file, corpora, run database, checkpoints):
  // never replaced by an output, nothing written inside the folders.
  std::vector<std::string> guarded;
  // Whether an existing file is one this command wrote before, so that it may be replaced;
  // unset: the user already agreed to replace it (a file dialog asked).
  std::function<bool(const std::string& path)> ownOutput;
  // --force: replace an existing regular file the command did not write.
  bool replaceAny = false;
  // What the refusal of an existing file the command did not write says to do instead of
  // choosing a new name (the command line's --force; a window's own way).
  std::string howToReplace = "add --force to replace it";
};

// Throws OutputRefused unless `path` may receive a new file: a new name in an existing folder,
// or an existing regular file (never a symbolic link, device, FIFO, socket or folder) that is
// none of `inputs`, lies in no project store (a run database and its companions, a project's
// checkpoints/ folder, a YAML file, any of `guarded`) and that the command
// wrote before (or `replaceAny`).
void checkOutputPath(const std::string& path, const OutputRules& rules);

// The part of checkOutputPath that `guarded` makes: throws OutputRefused when `path` is one of
// them or lies in one that is a folder. For a save that may replace a file of its own kind (a
// project saved as another project's file) but never a project's data or runs.
void refuseGuarded(const std::string& path, const std::vector<std::string>& guarded);

// checkOutputPath, then an atomic write (a temporary file beside it, then rename).
void writeOutputFile(const std::string& path, const std::string& contents,
                     const OutputRules& rules);

// The first `bytes` bytes of a file (fewer when it is shorter; "" when unreadable).
std::string fileHead(const std::string& path, size_t bytes);

// Whether an existing file starts with the same line as `contents` (for JSON, the same line
// and first key): a table or export this command wrote earlier, recognised by its header.
bool startsLike(const std::string& path, const std::string& contents);

// A document the user keeps (a project file) rewritten in place: through a symbolic link to
// the file it names, which must be a regular file; atomically. Throws std::runtime_error
// naming the path.
void rewriteDocument(const std::string& path, const std::string& contents);

// Whether the document at `path` no longer holds `lastKnown`, the text this program last read
// from it or wrote to it: another program (a text editor) changed it since, and rewriting it
// would lose that. A missing or unreadable file counts as unchanged: rewriting loses nothing.
bool changedSince(const std::string& path, const std::string& lastKnown);

}  // namespace mrnn::engine
