#pragma once

// What a CUDA fused window (cuda_*_window.h) asks of a device: matrix products, copies and
// the element-wise steps of window_rows.h, each enqueued in order. CudaWindowOps
// (cuda_window_ops.h) enqueues them on a GPU stream with cuBLAS and kernels; the tests'
// HostWindowOps runs them on the CPU with cuBLAS's argument rules, so the windows' logic is
// checked where no GPU is. No host synchronisation is implied; failures throw
// std::runtime_error.

#include <cstdint>

#include "engine/cuda/gemm_call.h"
#include "engine/cuda/window_rows.h"

namespace mrnn::engine::cuda {

class WindowOps {
 public:
  virtual ~WindowOps() = default;

  virtual void gemm(const GemmCall& call) = 0;
  // dst = src over n floats (device to device).
  virtual void copy(float* dst, const float* src, int64_t n) = 0;

  virtual void run(const MultiplyRows& rows) = 0;
  virtual void run(const MultiplyRowsBackward& rows) = 0;
  virtual void run(const MaskedCopy& rows) = 0;
  virtual void run(const MaskedAccumulate& rows) = 0;
  virtual void run(const AddOrCopy& rows) = 0;
  virtual void run(const ActivateRows& rows) = 0;
  virtual void run(const LstmRowsForward& rows) = 0;
  virtual void run(const LstmRowsBackward& rows) = 0;
  virtual void run(const GruRowsForward& rows) = 0;
  virtual void run(const GruRowsBackward& rows) = 0;
  virtual void run(const ResetRowsForward& rows) = 0;
  virtual void run(const ResetRowsBackward& rows) = 0;
  virtual void run(const Fill& rows) = 0;
  virtual void run(const ColumnSums& rows) = 0;
  virtual void run(const MogrifyRows& rows) = 0;
  virtual void run(const MogrifyRowsBackward& rows) = 0;
};

}  // namespace mrnn::engine::cuda
