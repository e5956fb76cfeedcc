#pragma once

#include <string>
#include <vector>

#include "engine/config/project_file.h"

namespace mrnn::engine {

// What a project keeps and no command's output may replace: its file, its run database (and
// SQLite's companions), its checkpoints folder and its corpora, as paths from the working
// folder (`projectFile` is the project's file; relative data paths are read from its folder).
std::vector<std::string> projectStorePaths(const Project& project, const std::string& projectFile);

// The same for a project that may not be there or not be readable (a checkpoint opened alone
// names its project folder): what can be found of it, never an error.
std::vector<std::string> projectStorePathsIn(const std::string& projectFolder);

}  // namespace mrnn::engine
