#pragma once

// The windows' operations (window_ops.h) on a GPU: products through cuBLAS, the element-wise
// steps as one kernel launch each, all enqueued on one stream without host synchronisation.

#include <cstddef>
#include <functional>

#include "engine/cuda/cuda_handles.h"
#include "engine/cuda/window_ops.h"

namespace mrnn::engine::cuda {

// Device memory of `bytes` bytes that stays valid, in the stream's order, until the ops that
// asked are destroyed: LibTorch's caching allocator in the engine, cudaMalloc in the tests.
using DeviceBytes = std::function<void*(size_t bytes)>;

class CudaWindowOps final : public WindowOps {
 public:
  // Binds `blas` to `stream` (cublasSetStream); the handle's math mode stays the caller's:
  // the default is full float32, TF32 would loosen the products. Bfloat16 products need
  // `bytes` for their operands' copies.
  CudaWindowOps(BlasHandle blas, Stream stream,
                ProductPrecision precision = ProductPrecision::Float32, DeviceBytes bytes = {});

  void copy(float* dst, const float* src, int64_t n) override;

  void run(const MultiplyRows& rows) override;
  void run(const MultiplyRowsBackward& rows) override;
  void run(const MaskedCopy& rows) override;
  void run(const MaskedAccumulate& rows) override;
  void run(const AddOrCopy& rows) override;
  void run(const ActivateRows& rows) override;
  void run(const TanhRowsBackward& rows) override;
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
  void run(const RoundToBfloat16& rows) override;

 private:
  void gemmFloat32(const GemmCall& call) override;
  void gemmBfloat16(const GemmCall& call, const Bfloat16Bits* a, const Bfloat16Bits* b) override;
  Bfloat16Bits* bfloat16Buffer(int64_t n) override;

  BlasHandle blas_;
  Stream stream_;
  DeviceBytes bytes_;
};

}  // namespace mrnn::engine::cuda
