#include "engine/devices/compute_device.h"

#include <dlfcn.h>
#include <torch/cuda.h>

#include <stdexcept>

#include "engine/config/device_name.h"
#include "engine/devices/cuda_kernels_built.h"
#include "engine/runtime/machine_resources.h"
#ifdef MRNN_HAVE_CUDA_KERNELS
#include "engine/cuda/cuda_device_info.h"
#endif

namespace mrnn::engine {
namespace {

// A CUDA LibTorch links libtorch_cuda.so, so it is loaded by the time anything here runs;
// a CPU-only one has no such library. LibTorch's own is_available() says false for both,
// and the two need different advice.
bool libtorchHasCuda() {
  void* handle = dlopen("libtorch_cuda.so", RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  dlclose(handle);
  return true;
}

std::string gpuCountText(size_t count) {
  return std::to_string(count) + (count == 1 ? " GPU" : " GPUs");
}

// "cuda:N (its name)", or "cuda:N" where the list does not have it.
std::string describeGpu(const ComputeDevices& devices, int index) {
  std::string text = "cuda:" + std::to_string(index);
  if (index < static_cast<int>(devices.gpus.size())) {
    text += " (" + devices.gpus[static_cast<size_t>(index)].name + ")";
  }
  return text;
}

}  // namespace

ComputeDevices listComputeDevices() {
  ComputeDevices devices;
  if (!torch::cuda::is_available()) {
    devices.unavailableReason =
        libtorchHasCuda() ? "no CUDA GPU is visible to this process (no NVIDIA driver, or "
                            "CUDA_VISIBLE_DEVICES hides them)"
                          : "this build's LibTorch has no CUDA";
    return devices;
  }
  const auto count = static_cast<int>(torch::cuda::device_count());
#ifdef MRNN_HAVE_CUDA_KERNELS
  const auto described = cuda::describeDevices();
#endif
  for (int i = 0; i < count; ++i) {
    GpuDescription gpu;
    gpu.id = "cuda:" + std::to_string(i);
    gpu.name = "GPU " + std::to_string(i);
#ifdef MRNN_HAVE_CUDA_KERNELS
    if (i < static_cast<int>(described.size())) {
      gpu.name = described[static_cast<size_t>(i)].name;
      gpu.memoryBytes = described[static_cast<size_t>(i)].memoryBytes;
    }
#endif
    devices.gpus.push_back(gpu);
  }
  return devices;
}

torch::Device resolveComputeDevice(const std::string& text, const std::string& where) {
  const auto name = parseDeviceName(text);
  if (!name) {
    throw std::invalid_argument(deviceNameProblem(where, text));
  }
  if (!name->cuda) return torch::kCPU;
  const auto devices = listComputeDevices();
  if (devices.gpus.empty()) {
    throw std::runtime_error(where + " is '" + text + "', but " + devices.unavailableReason +
                             "; use cpu");
  }
  const int index = name->index < 0 ? 0 : name->index;
  if (index >= static_cast<int>(devices.gpus.size())) {
    std::string ids;
    for (const auto& gpu : devices.gpus) ids += (ids.empty() ? "" : ", ") + gpu.id;
    throw std::runtime_error(where + " is '" + text + "', but this machine has " +
                             gpuCountText(devices.gpus.size()) + " (" + ids + ")");
  }
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
}

int64_t gpuMemoryInUse(const torch::Device& device) {
  if (!device.is_cuda()) return -1;
#ifdef MRNN_HAVE_CUDA_KERNELS
  return cuda::memoryInUse(device.has_index() ? device.index() : 0);
#else
  return -1;
#endif
}

void requireGpuMemory(const torch::Device& device, double bytes, const std::string& what,
                      const std::string& advice) {
  if (!device.is_cuda()) return;
  const int index = device.has_index() ? device.index() : 0;
  const auto devices = listComputeDevices();
  if (index >= static_cast<int>(devices.gpus.size())) return;
  const auto total = static_cast<double>(devices.gpus[static_cast<size_t>(index)].memoryBytes);
  if (total <= 0.0 || bytes <= total) return;
  throw ResourceError(what + " needs about " + formatBytes(bytes) + " of GPU memory; " +
                      describeGpu(devices, index) + " has " + formatBytes(total) +
                      (advice.empty() ? "" : ". " + advice));
}

std::string describeComputeDevice(const torch::Device& device) {
  if (device.is_cpu()) return "cpu";
  return describeGpu(listComputeDevices(), device.has_index() ? device.index() : 0);
}

}  // namespace mrnn::engine
