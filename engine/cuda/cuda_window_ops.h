#pragma once

// The windows' operations (window_ops.h) on a GPU: products through cuBLAS, the element-wise
// steps as one kernel launch each, all enqueued on one stream without host synchronisation.

#include "engine/cuda/cuda_handles.h"
#include "engine/cuda/window_ops.h"

namespace mrnn::engine::cuda {

class CudaWindowOps final : public WindowOps {
 public:
  // Binds `blas` to `stream` (cublasSetStream); the handle's math mode stays the caller's:
  // the default is full float32, TF32 would loosen the products.
  CudaWindowOps(BlasHandle blas, Stream stream);

  void gemm(const GemmCall& call) override;
  void copy(float* dst, const float* src, int64_t n) override;

  void run(const MultiplyRows& rows) override;
  void run(const MultiplyRowsBackward& rows) override;
  void run(const MaskedCopy& rows) override;
  void run(const MaskedAccumulate& rows) override;
  void run(const AddOrCopy& rows) override;
  void run(const ActivateRows& rows) override;
  void run(const LstmRowsForward& rows) override;
  void run(const LstmRowsBackward& rows) override;
  void run(const GruRowsForward& rows) override;
  void run(const GruRowsBackward& rows) override;
  void run(const ResetRowsForward& rows) override;
  void run(const ResetRowsBackward& rows) override;
  void run(const Fill& rows) override;
  void run(const ColumnSums& rows) override;
  void run(const MogrifyRows& rows) override;
  void run(const MogrifyRowsBackward& rows) override;

 private:
  BlasHandle blas_;
  Stream stream_;
};

}  // namespace mrnn::engine::cuda
