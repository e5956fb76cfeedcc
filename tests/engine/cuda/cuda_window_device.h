#pragma once

// The GPU windows on a GPU (window_device.h): cudaMalloc'd buffers (the bfloat16 operands'
// copies too), CudaWindowOps on a stream of its own, cuBLAS's default float32 math. Needs a CUDA
// device: the caller checks.

#include <memory>
#include <vector>

#include "engine/cuda/cuda_window_ops.h"
#include "window_device.h"

namespace mrnn::test {

class CudaWindowDevice final : public WindowDevice {
 public:
  explicit CudaWindowDevice(
      engine::cuda::ProductPrecision precision = engine::cuda::ProductPrecision::Float32);
  ~CudaWindowDevice() override;
  CudaWindowDevice(const CudaWindowDevice&) = delete;
  CudaWindowDevice& operator=(const CudaWindowDevice&) = delete;

  float* upload(const torch::Tensor& host) override;
  float* scratch(int64_t n) override;
  torch::Tensor download(const float* p, torch::IntArrayRef shape) override;
  engine::cuda::WindowOps& ops() override { return *ops_; }
  void finish() override;

 private:
  engine::cuda::Stream stream_ = nullptr;
  engine::cuda::BlasHandle blas_ = nullptr;
  std::unique_ptr<engine::cuda::CudaWindowOps> ops_;
  std::vector<void*> buffers_;
};

}  // namespace mrnn::test
