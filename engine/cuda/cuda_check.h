#pragma once

// Error checks for the engine/cuda sources (internal: needs the CUDA headers). A failed call
// throws std::runtime_error naming the call; a launch is checked with cudaGetLastError, which
// does not synchronise with the device.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace mrnn::engine::cuda {

inline void checkCuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

inline void checkCublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": " + cublasGetStatusString(status));
  }
}

}  // namespace mrnn::engine::cuda
