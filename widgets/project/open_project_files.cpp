#include "widgets/project/open_project_files.h"

#include <algorithm>

#include "engine/config/project_store_paths.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {
namespace {

// The window's thread alone adds, removes and reads (documents and exports live there).
std::vector<const ProjectDocument*>& documents() {
  static std::vector<const ProjectDocument*> open;
  return open;
}

}  // namespace

void OpenProjectFiles::add(const ProjectDocument* document) {
  documents().push_back(document);
}

void OpenProjectFiles::remove(const ProjectDocument* document) {
  auto& open = documents();
  open.erase(std::remove(open.begin(), open.end(), document), open.end());
}

std::vector<std::string> OpenProjectFiles::paths() {
  std::vector<std::string> guarded;
  for (const ProjectDocument* document : documents()) {
    if (document->isUntitled()) continue;
    const std::vector<std::string> kept =
        engine::projectStorePaths(document->project(), toNativePath(document->path()));
    guarded.insert(guarded.end(), kept.begin(), kept.end());
  }
  return guarded;
}

engine::OutputRules OpenProjectFiles::exportRules() {
  engine::OutputRules rules;
  rules.guarded = paths();
  return rules;
}

}  // namespace mrnn::widgets
