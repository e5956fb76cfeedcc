#pragma once

// What the GPU window checks (cuda_window_checks.cpp, cuda_true_window_checks.cpp) share:
// the window's sizes, a loss on its outputs, the CPU fused window run under autograd as the
// expectation, and the comparison at each product precision.

#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cuda_window_checks.h"
#include "engine/models/fused_window.h"

namespace mrnn::test::window_checks {

// Sizes that differ from each other, so that a swapped dimension cannot pass.
constexpr int64_t kT = 5, kB = 3, kH = 8, kM = 12;

using Named = std::vector<std::pair<std::string, torch::Tensor>>;

// The weights of a loss that reads the window's outputs: each step's h (when the case says
// so), the final h and, for the LSTM family, the final c. They are the gradients that reach
// those outputs, which the device's backward takes directly.
struct LossWeights {
  torch::Tensor steps, h, c;  // steps undefined without step gradients; c for LSTMs only
};

LossWeights lossWeights(const WindowCase& windowCase, bool withC);

// A variational mask on h_{t-1} ([kB, kH], kept units scaled by 1 / 0.7) when the case asks.
torch::Tensor stateMask(const WindowCase& windowCase);

// The CPU fused window on leaf copies of `inputs`, with the loss of `w`: its outputs
// ("hs", "h", "c") and the gradient of each input ("d" + its name).
Named cpuWindow(
    const Named& inputs,
    const std::function<engine::FusedWindowResult(const std::vector<torch::Tensor>&)>& run,
    const LossWeights& w);

// actual against expected, name by name, within the precision's tolerance; at bfloat16 the
// results must also show its rounding.
void compare(const Named& actual, const Named& expected, const std::string& label,
             engine::cuda::ProductPrecision precision);

// The mask or the step gradients on the device, or null where the case has none.
float* maskOn(WindowDevice& device, const torch::Tensor& mask);
float* stepsOn(WindowDevice& device, const LossWeights& w);

}  // namespace mrnn::test::window_checks
