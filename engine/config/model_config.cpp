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

std::string recurrentInitName(RecurrentInit init) {
  switch (init) {
    case RecurrentInit::Orthogonal:
      return "orthogonal";
    case RecurrentInit::Uniform:
      return "uniform";
    case RecurrentInit::Sparse:
      return "sparse";
  }
  return "orthogonal";
}

std::string outputKindName(OutputKind kind) {
  switch (kind) {
    case OutputKind::Softmax:
      return "softmax";
    case OutputKind::MixtureOfSoftmaxes:
      return "mos";
    case OutputKind::Linear:
      return "linear";
  }
  return "softmax";
}

int64_t LayerConfig::majorSize() const {
  // Rounded to the nearest unit; the major LSTM always keeps at least one unit.
  const auto major =
      static_cast<int64_t>(std::llround(majorShare * static_cast<double>(hiddenSize)));
  if (major < 1) return 1;
  return major > hiddenSize ? hiddenSize : major;
}

}  // namespace mrnn::engine
