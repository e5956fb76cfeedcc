#pragma once

// The mLSTM fused window (engine/models/fused_mlstm_window.cpp, output gate outside) for a
// GPU: the same algorithm on raw device pointers, per step two products and three
// element-wise steps (the state mask, m, the LSTM update) each way, and the recurrent
// weights' gradients as one product each over all T x B rows at the end. Written against WindowOps
// (window_ops.h): CudaWindowOps enqueues it on a stream with cuBLAS and kernels, and the
// tests run it on the CPU. No LibTorch and no CUDA header here: the caller owns every buffer
// (a LibTorch CUDA tensor's data, or cudaMalloc). All buffers are float32, row-major and
// contiguous, as on the CPU.

#include <cstdint>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/windows/mlstm_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the buffers and their shapes: engine/windows/mlstm_window_layout.h.

using MlstmWindowForwardBuffers = WindowForwardBuffers<MlstmWindow>;
using MlstmWindowBackwardBuffers = WindowBackwardBuffers<MlstmWindow>;

// The window forward, enqueued on ops.
void windowForward(const MlstmWindowSizes& sizes, const MlstmWindowForwardBuffers& buffers,
                   WindowOps& ops);

// The window backward, on buffers a forward with the same sizes wrote.
void windowBackward(const MlstmWindowSizes& sizes, const MlstmWindowBackwardBuffers& buffers,
                    WindowOps& ops);

}  // namespace mrnn::engine::cuda
