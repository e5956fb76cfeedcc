#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mrnn::engine::cuda {

// What the CUDA runtime says of each visible GPU (LibTorch's CPU headers cannot say it).
struct DeviceInfo {
  std::string name;
  int64_t memoryBytes = 0;
  int major = 0;  // compute capability
  int minor = 0;
};

// Empty where the runtime sees no GPU or no driver; never throws.
std::vector<DeviceInfo> describeDevices();

// Device `device`'s memory in use (total minus free, every process's), or -1 where the
// runtime cannot say; never throws.
int64_t memoryInUse(int device);

}  // namespace mrnn::engine::cuda
