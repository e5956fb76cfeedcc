#include "cuda_window_device.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <torch/torch.h>

#include "test_harness.h"

namespace mrnn::test {

namespace {

void checkCuda(cudaError_t status, const char* what) {
  EXPECT_MSG(status == cudaSuccess, what << ": " << cudaGetErrorString(status));
}

size_t bytes(int64_t n) {
  return static_cast<size_t>(n > 0 ? n : 1) * sizeof(float);
}

}  // namespace

CudaWindowDevice::CudaWindowDevice(engine::cuda::ProductPrecision precision) {
  checkCuda(cudaStreamCreate(&stream_), "cudaStreamCreate");
  EXPECT_MSG(cublasCreate(&blas_) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
  ops_ = std::make_unique<engine::cuda::CudaWindowOps>(
      blas_, stream_, precision, [this](size_t n) -> void* {
        void* p = nullptr;
        checkCuda(cudaMalloc(&p, n > 0 ? n : 1), "cudaMalloc (bfloat16 operands)");
        buffers_.push_back(p);
        // All ones is a NaN in bfloat16: a product reading a copy never rounded into fails.
        checkCuda(cudaMemset(p, 0xff, n > 0 ? n : 1), "cudaMemset");
        return p;
      });
}

CudaWindowDevice::~CudaWindowDevice() {
  cudaStreamSynchronize(stream_);
  for (void* p : buffers_) cudaFree(p);
  if (blas_ != nullptr) cublasDestroy(blas_);
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

float* CudaWindowDevice::scratch(int64_t n) {
  float* p = nullptr;
  checkCuda(cudaMalloc(reinterpret_cast<void**>(&p), bytes(n)), "cudaMalloc");
  buffers_.push_back(p);
  // All bits set is a NaN: what a window reads before writing poisons its results.
  checkCuda(cudaMemset(p, 0xff, bytes(n)), "cudaMemset");
  return p;
}

float* CudaWindowDevice::upload(const torch::Tensor& host) {
  const auto floats = host.to(torch::kFloat).contiguous();
  float* p = scratch(floats.numel());
  checkCuda(cudaMemcpy(p, floats.data_ptr<float>(), bytes(floats.numel()), cudaMemcpyHostToDevice),
            "upload");
  return p;
}

torch::Tensor CudaWindowDevice::download(const float* p, torch::IntArrayRef shape) {
  auto host = torch::empty(shape, torch::kFloat);
  checkCuda(cudaMemcpy(host.data_ptr<float>(), p, bytes(host.numel()), cudaMemcpyDeviceToHost),
            "download");
  return host;
}

void CudaWindowDevice::finish() {
  checkCuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

}  // namespace mrnn::test
