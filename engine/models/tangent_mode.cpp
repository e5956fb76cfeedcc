#include "engine/models/tangent_mode.h"

#include <utility>

namespace mrnn::engine {
namespace {
thread_local std::optional<uint64_t> currentLevel;
thread_local std::map<const RecurrentCell*, torch::Tensor> knownOutputs;
}  // namespace

TangentMode::TangentMode(uint64_t level) : outer_(currentLevel), outerKnown_(knownOutputs) {
  currentLevel = level;
  knownOutputs.clear();
}

TangentMode::~TangentMode() {
  currentLevel = outer_;
  knownOutputs = std::move(outerKnown_);
}

std::optional<uint64_t> TangentMode::level() {
  return currentLevel;
}

void TangentMode::setKnownOutputs(std::map<const RecurrentCell*, torch::Tensor> outputs) {
  knownOutputs = std::move(outputs);
}

torch::Tensor TangentMode::knownOutput(const RecurrentCell* cell) {
  const auto found = knownOutputs.find(cell);
  return found == knownOutputs.end() ? torch::Tensor() : found->second;
}

}  // namespace mrnn::engine
