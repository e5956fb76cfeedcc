#include "engine/cuda/cuda_device_info.h"

#include <cuda_runtime.h>

namespace mrnn::engine::cuda {

std::vector<DeviceInfo> describeDevices() {
  std::vector<DeviceInfo> devices;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return devices;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, i) != cudaSuccess) {
      cudaGetLastError();
      break;
    }
    devices.push_back({properties.name, static_cast<int64_t>(properties.totalGlobalMem),
                       properties.major, properties.minor});
  }
  return devices;
}

int64_t memoryInUse(int device) {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(device) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  size_t free = 0, total = 0;
  const bool ok = cudaMemGetInfo(&free, &total) == cudaSuccess;
  if (!ok) cudaGetLastError();
  cudaSetDevice(previous);
  return ok ? static_cast<int64_t>(total - free) : -1;
}

}  // namespace mrnn::engine::cuda
