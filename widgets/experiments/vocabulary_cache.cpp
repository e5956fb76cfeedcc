#include "widgets/experiments/vocabulary_cache.h"

#include <filesystem>
#include <system_error>

namespace mrnn::widgets {
namespace {

// A corpus file as far as its vocabulary goes: where it is, how large, when written.
std::string fileStamp(const std::string& folder, const std::string& file) {
  if (file.empty()) return "-";
  namespace fs = std::filesystem;
  const fs::path path = fs::path(file).is_absolute() ? fs::path(file) : fs::path(folder) / file;
  std::error_code error;
  const auto size = fs::file_size(path, error);
  const auto time = fs::last_write_time(path, error);
  return path.string() + ":" + std::to_string(error ? 0 : size) + ":" +
         std::to_string(error ? 0 : time.time_since_epoch().count());
}

}  // namespace

int64_t VocabularyCache::sizeOf(const engine::Project& project) {
  const engine::DataConfig& data = project.data;
  std::string key = project.folder + "|" + std::to_string(static_cast<int>(project.hasData)) + "|" +
                    engine::inputLevelName(project.model.input.level) + "|" +
                    std::to_string(project.model.input.vocabSize) + "|" +
                    std::to_string(static_cast<int>(data.synthetic)) + "|" +
                    std::to_string(data.copy.vocabulary) + "|" +
                    std::to_string(static_cast<int>(data.format)) + "|" +
                    std::to_string(static_cast<int>(data.vocabulary)) + "|" +
                    std::to_string(data.minCount) + "|" + std::to_string(data.maxSymbols) + "|" +
                    std::to_string(data.validFraction) + "|" + std::to_string(data.testFraction);
  for (const std::string& file : engine::trainFiles(data)) {
    key += "|" + fileStamp(project.folder, file);
  }
  key += "|" + fileStamp(project.folder, data.valid) + "|" + fileStamp(project.folder, data.test);
  const auto known = known_.find(key);
  if (known != known_.end()) return known->second;
  const int64_t size = engine::projectVocabularySize(project);
  known_[key] = size;
  return size;
}

}  // namespace mrnn::widgets
