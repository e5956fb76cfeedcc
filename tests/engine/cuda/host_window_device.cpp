#include "host_window_device.h"

#include <torch/torch.h>

#include <cstring>
#include <limits>

#include "test_harness.h"

namespace mrnn::test {

namespace {

constexpr int64_t kGuard = 64;  // floats each side
// A NaN with a payload no arithmetic produces from the windows' finite inputs.
constexpr uint32_t kGuardBits = 0x7fa11a5eu;

float guardValue() {
  float f;
  std::memcpy(&f, &kGuardBits, sizeof f);
  return f;
}

bool isGuard(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits == kGuardBits;
}

}  // namespace

float* HostWindowDevice::allocate(int64_t n) {
  auto buffer = std::make_unique<std::vector<float>>(static_cast<size_t>(n + 2 * kGuard),
                                                     std::numeric_limits<float>::quiet_NaN());
  std::fill(buffer->begin(), buffer->begin() + kGuard, guardValue());
  std::fill(buffer->end() - kGuard, buffer->end(), guardValue());
  float* interior = buffer->data() + kGuard;
  buffers_.push_back(std::move(buffer));
  return interior;
}

float* HostWindowDevice::upload(const torch::Tensor& host) {
  const auto floats = host.to(torch::kFloat).contiguous();
  float* p = allocate(floats.numel());
  std::memcpy(p, floats.data_ptr<float>(), static_cast<size_t>(floats.numel()) * sizeof(float));
  return p;
}

float* HostWindowDevice::scratch(int64_t n) {
  return allocate(n);
}

torch::Tensor HostWindowDevice::download(const float* p, torch::IntArrayRef shape) {
  auto out = torch::empty(shape, torch::kFloat);
  std::memcpy(out.data_ptr<float>(), p, static_cast<size_t>(out.numel()) * sizeof(float));
  return out;
}

void HostWindowDevice::finish() {
  for (size_t b = 0; b < buffers_.size(); ++b) {
    const auto& buffer = *buffers_[b];
    for (int64_t i = 0; i < kGuard; ++i) {
      EXPECT_MSG(isGuard(buffer[static_cast<size_t>(i)]) &&
                     isGuard(buffer[buffer.size() - 1 - static_cast<size_t>(i)]),
                 "a window step wrote outside buffer " << b << " (its guard floats changed)");
    }
  }
}

}  // namespace mrnn::test
