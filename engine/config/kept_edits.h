#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

// A project's unsaved edits, kept by the workbench outside the project (its own data folder)
// so that a window closed without a chance to ask (a logout's SIGTERM, a crash, a power cut)
// loses nothing; the next window that opens the project offers them back.
//
// The file: a short YAML header, the marker line "...", then the project's text exactly as
// the window had it, byte for byte (so a person can also copy it out by hand).
struct KeptEdits {
  std::string project;   // the project file's absolute path
  std::string keptAt;    // when they were kept, UTC ISO 8601 ("2026-12-07T18:40:00Z")
  uint64_t basedOn = 0;  // fnv1a of the file's text the edits began from
  std::string text;      // the project as the window had it, unsaved
  // The text was typed in the YAML view and did not read as a project yet (a list half
  // typed): it goes back there, as typed, rather than into the project.
  bool draft = false;
};

// The file's contents for `edits`.
std::string keptEditsFileText(const KeptEdits& edits);

// Reads a kept-edits file's contents; throws ConfigError naming `file`, the line and the key
// at fault when they are not one.
KeptEdits parseKeptEdits(const std::string& contents, const std::string& file);

}  // namespace mrnn::engine
