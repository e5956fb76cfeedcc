#include "engine/store/run_folder_ids.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "engine/store/run_paths.h"

namespace mrnn::engine {

int64_t highestRunFolderId(const std::string& projectFolder) {
  std::error_code error;
  std::filesystem::directory_iterator entries(RunPaths::checkpoints(projectFolder), error);
  int64_t highest = 0;
  for (; !error && entries != std::filesystem::directory_iterator(); entries.increment(error)) {
    highest = std::max(highest, RunPaths::idOfFolderName(entries->path().filename().string()));
  }
  return highest;
}

}  // namespace mrnn::engine
