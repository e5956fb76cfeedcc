#include "engine/bench/flop_count.h"

#include <torch/torch.h>

namespace mrnn::engine {

int64_t matrixEntries(const torch::nn::Module& model) {
  int64_t entries = 0;
  for (const auto& item : model.named_parameters(/*recurse=*/true)) {
    const auto& p = item.value();
    const std::string& name = item.key();
    // Embedding tables are looked up, not multiplied; [.., rows, 1] tensors are weight-norm
    // gains, scaled element-wise.
    if (p.dim() < 2 || p.size(-1) == 1) continue;
    if (name.find("embedding") != std::string::npos) continue;
    entries += p.numel();
  }
  return entries;
}

double forwardFlopsPerSymbol(const torch::nn::Module& model) {
  return 2.0 * static_cast<double>(matrixEntries(model));
}

double trainingFlopsPerSymbol(const torch::nn::Module& model) {
  return 3.0 * forwardFlopsPerSymbol(model);
}

double curvatureFlopsPerSymbol(const torch::nn::Module& model) {
  return 10.0 * static_cast<double>(matrixEntries(model));
}

}  // namespace mrnn::engine
