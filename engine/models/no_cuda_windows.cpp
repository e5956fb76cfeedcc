// The GPU windows' entry points in a build without engine/cuda (CMake builds this file instead
// of cuda_fused_windows.cpp and cuda_fused_mogrifier_window.cpp): no tensor suits them, so no
// cell ever calls them.

#include <stdexcept>

#include "engine/models/cuda_fused_mogrifier_window.h"
#include "engine/models/cuda_fused_window.h"
#include "engine/windows/gru_window_layout.h"
#include "engine/windows/lstm_window_layout.h"
#include "engine/windows/mgru_window_layout.h"
#include "engine/windows/mlstm_window_layout.h"
#include "engine/windows/mrnn_window_layout.h"
#include "engine/windows/rnn_window_layout.h"
#include "engine/windows/tmgru_window_layout.h"
#include "engine/windows/tmlstm_window_layout.h"

namespace mrnn::engine {

namespace {
[[noreturn]] void noKernels() {
  throw std::logic_error("this build has no CUDA kernels (MRNN_CUDA)");
}
}  // namespace

bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor>) {
  return false;
}

template <typename Window>
FusedWindowResult cudaFusedWindow(const WindowTensors<Window>&) {
  noKernels();
}

#define MRNN_INSTANTIATE_WINDOW(W) \
  template FusedWindowResult cudaFusedWindow<W>(const WindowTensors<W>&);
MRNN_GPU_WINDOW_CELLS(MRNN_INSTANTIATE_WINDOW)
#undef MRNN_INSTANTIATE_WINDOW

FusedWindowResult cudaFusedMogrifierWindow(const torch::Tensor&, const torch::Tensor&,
                                           const torch::Tensor&, const torch::Tensor&,
                                           const torch::Tensor&, const torch::Tensor&,
                                           const std::vector<torch::Tensor>&, bool, bool,
                                           const torch::Tensor&) {
  noKernels();
}

}  // namespace mrnn::engine
