#include "engine/store/run_folder_ids.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "engine/store/run_paths.h"

namespace mrnn::engine {
namespace {

// Ids up to 15 digits: a longer name is no id the database could have handed out, and
// passing it would run the ids toward their limit.
constexpr std::size_t kMaxIdDigits = 15;

int64_t idOf(const std::string& name) {
  static const std::string prefix = "run-";
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return 0;
  const std::string digits = name.substr(prefix.size());
  if (digits.size() > kMaxIdDigits) return 0;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return 0;
  }
  return std::stoll(digits);
}

}  // namespace

int64_t highestRunFolderId(const std::string& projectFolder) {
  std::error_code error;
  std::filesystem::directory_iterator entries(RunPaths::checkpoints(projectFolder), error);
  int64_t highest = 0;
  for (; !error && entries != std::filesystem::directory_iterator(); entries.increment(error)) {
    highest = std::max(highest, idOf(entries->path().filename().string()));
  }
  return highest;
}

}  // namespace mrnn::engine
