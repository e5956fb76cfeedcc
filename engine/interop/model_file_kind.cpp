#include "engine/interop/model_file_kind.h"

#include <filesystem>

#include "engine/interop/safetensors_file.h"

namespace mrnn::engine {

bool isSafetensorsName(const std::string& path) {
  const std::string tail = ".safetensors";
  return path.size() >= tail.size() &&
         path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
}

ModelFileKind modelFileKind(const std::string& path) {
  if (path.empty() || !std::filesystem::is_regular_file(path)) return ModelFileKind::Missing;
  if (!isSafetensorsName(path)) {
    return std::filesystem::is_regular_file(exportDescriptionPath(path)) ? ModelFileKind::Exported
                                                                         : ModelFileKind::PyTorch;
  }
  try {
    return readSafetensorsMetadata(path).count("mrnn") ? ModelFileKind::Exported
                                                       : ModelFileKind::PyTorch;
  } catch (const std::exception&) {
    return ModelFileKind::Unknown;
  }
}

}  // namespace mrnn::engine
