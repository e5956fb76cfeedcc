#include "engine/config/model_config.h"

#include <cmath>

namespace mrnn::engine {

std::string inputLevelName(InputLevel level) {
  switch (level) {
    case InputLevel::Byte:
      return "byte";
    case InputLevel::Char:
      return "char";
    case InputLevel::Word:
      return "word";
  }
  return "char";
}

std::string outputKindName(OutputKind kind) {
  return kind == OutputKind::Softmax ? "softmax" : "mos";
}

int64_t LayerConfig::majorSize() const {
  // Rounded to the nearest unit; the major LSTM always keeps at least one unit.
  const auto major =
      static_cast<int64_t>(std::llround(majorShare * static_cast<double>(hiddenSize)));
  if (major < 1) return 1;
  return major > hiddenSize ? hiddenSize : major;
}

}  // namespace mrnn::engine
