#pragma once

// The GPU windows run on the CPU (window_device.h): HostWindowOps, and buffers with guard
// floats on both sides, so that a step writing past its buffer is caught at finish() and one
// reading past it reads NaN.

#include <memory>
#include <vector>

#include "host_window_ops.h"
#include "window_device.h"

namespace mrnn::test {

class HostWindowDevice final : public WindowDevice {
 public:
  explicit HostWindowDevice(
      engine::cuda::ProductPrecision precision = engine::cuda::ProductPrecision::Float32)
      : ops_(precision) {}

  float* upload(const torch::Tensor& host) override;
  float* scratch(int64_t n) override;
  torch::Tensor download(const float* p, torch::IntArrayRef shape) override;
  engine::cuda::WindowOps& ops() override { return ops_; }
  void finish() override;

  const HostWindowOps& hostOps() const { return ops_; }

 private:
  float* allocate(int64_t n);

  HostWindowOps ops_;
  std::vector<std::unique_ptr<std::vector<float>>> buffers_;
};

}  // namespace mrnn::test
