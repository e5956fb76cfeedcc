#include "engine/models/output_loss.h"

#include <torch/torch.h>

namespace mrnn::engine {

torch::Tensor stepLoss(const torch::Tensor& outputs, const torch::Tensor& targets,
                       const torch::Tensor& targetValues, bool symbols) {
  if (symbols) return -outputs.gather(2, targets.unsqueeze(2)).squeeze(2);
  const auto error = outputs - targetValues.to(outputs.dtype());
  return 0.5 * (error * error).sum(2);
}

torch::Tensor lossCurvature(const torch::Tensor& outputs, const torch::Tensor& tangent,
                            bool symbols) {
  return symbols ? outputs.detach().exp() * tangent : tangent;
}

}  // namespace mrnn::engine
