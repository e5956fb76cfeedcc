#include "engine/cuda/cuda_context.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <map>
#include <memory>

#include "engine/cuda/cuda_check.h"

namespace mrnn::engine::cuda {
namespace {

struct HandleDeleter {
  void operator()(cublasContext* handle) const { cublasDestroy(handle); }
};

using OwnedHandle = std::unique_ptr<cublasContext, HandleDeleter>;

}  // namespace

DeviceScope::DeviceScope(int device) {
  checkCuda(cudaGetDevice(&previous_), "cudaGetDevice");
  if (previous_ != device) checkCuda(cudaSetDevice(device), "cudaSetDevice");
}

DeviceScope::~DeviceScope() {
  int now = previous_;
  if (cudaGetDevice(&now) == cudaSuccess && now != previous_) cudaSetDevice(previous_);
}

BlasHandle threadBlasHandle(int device) {
  thread_local std::map<int, OwnedHandle> handles;
  auto& slot = handles[device];
  if (!slot) {
    cublasHandle_t handle = nullptr;
    checkCublas(cublasCreate(&handle), "cublasCreate");
    slot.reset(handle);
    checkCublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  }
  return slot.get();
}

}  // namespace mrnn::engine::cuda
