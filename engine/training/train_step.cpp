#include "engine/training/train_step.h"

#include "engine/training/local_collective.h"
#include "engine/training/window_objective.h"

namespace mrnn::engine {

UpdateResult optimisationStep(LanguageModel& model, torch::optim::Optimizer& optimizer,
                              ModelState& state, const torch::Tensor& inputs,
                              const torch::Tensor& targets, const torch::Tensor& mask,
                              double clipNorm, bool bf16) {
  LocalCollective local;
  ObjectiveOptions options;
  options.shard = {0, inputs.size(1)};
  options.bf16 = bf16;
  WindowObjective objective(model, local, state, {{inputs, targets, mask, false, {}, {}}}, options);
  UpdateResult result = firstOrderStep(objective, optimizer, clipNorm);
  state = objective.endState();
  return result;
}

}  // namespace mrnn::engine
