#include "engine/models/gru_update.h"

#include <torch/torch.h>

namespace mrnn::engine {

torch::Tensor gruUpdate(const torch::Tensor& z, const torch::Tensor& r, const torch::Tensor& j,
                        CellState& state, ProbeRecorder* probes) {
  auto h = (1 - z) * state.parts[0] + z * j;
  if (probes) {
    probes->record("z", z);
    probes->record("r", r);
    probes->record("j", j);
    probes->record("h", h);
  }
  state.parts[0] = h;
  return h;
}

}  // namespace mrnn::engine
