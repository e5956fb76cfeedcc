#include "engine/config/project_store_paths.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace mrnn::engine {
namespace {

std::string inFolder(const std::string& folder, const std::string& path) {
  if (path.empty()) return path;
  const fs::path file(path);
  return (file.is_absolute() ? file : fs::path(folder) / file).lexically_normal().string();
}

}  // namespace

std::vector<std::string> projectStorePaths(const Project& project, const std::string& projectFile) {
  const std::string folder = projectFolderOf(projectFile);
  std::vector<std::string> paths = {
      projectFile, inFolder(folder, "runs.sqlite"), inFolder(folder, "runs.sqlite-wal"),
      inFolder(folder, "runs.sqlite-shm"), inFolder(folder, "checkpoints")};
  if (project.hasData) {
    for (const std::string& file : trainFiles(project.data))
      paths.push_back(inFolder(folder, file));
    paths.push_back(inFolder(folder, project.data.valid));
    paths.push_back(inFolder(folder, project.data.test));
  }
  return paths;
}

std::vector<std::string> projectStorePathsIn(const std::string& projectFolder) {
  const std::string file = (fs::path(projectFolder) / "project.yaml").string();
  try {
    return projectStorePaths(loadProject(file), file);
  } catch (const std::exception&) {
    return projectStorePaths(Project(), file);
  }
}

}  // namespace mrnn::engine
