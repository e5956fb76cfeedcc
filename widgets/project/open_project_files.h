#pragma once

#include <string>
#include <vector>

#include "engine/io/output_file.h"

namespace mrnn::widgets {

class ProjectDocument;

// What the projects open in this process keep (their files, corpora, run databases and
// checkpoints): no export from a window replaces them, even after a file dialog's "replace
// it?", as no `mrnn` output does. Each ProjectDocument is counted while it lives.
class OpenProjectFiles {
 public:
  static void add(const ProjectDocument* document);
  static void remove(const ProjectDocument* document);
  // The paths of every open, titled project's store (engine::projectStorePaths).
  static std::vector<std::string> paths();
  // The rules a window's export is checked against: these paths guarded; an existing file
  // otherwise replaced, the file dialog having asked.
  static engine::OutputRules exportRules();
};

}  // namespace mrnn::widgets
