#pragma once

// The GPU windows of engine/cuda against the CPU fused windows (engine/models/fused_*_window)
// under LibTorch autograd: outputs, final states, and the gradients of every input, with and
// without a state mask, with and without a gradient on every step's output. Each check runs
// on any WindowDevice: on the CPU (cuda_windows_on_cpu_test) and on a GPU
// (cuda_kernels_test).

#include <cstdint>
#include <string>

#include "window_device.h"

namespace mrnn::test {

struct WindowCase {
  bool masked = false;         // a variational mask on h_{t-1}
  bool stepGradients = false;  // the loss reads every step's h, not only the final state

  std::string label() const;
};

void checkMlstmWindow(WindowDevice& device, const WindowCase& windowCase);
void checkLstmWindow(WindowDevice& device, const WindowCase& windowCase);
void checkGruWindow(WindowDevice& device, const WindowCase& windowCase);
void checkMgruWindow(WindowDevice& device, const WindowCase& windowCase);
// Maupome & Meurs's true cells, one intermediate state per gate (cuda_true_window_checks.cpp).
void checkTmlstmWindow(WindowDevice& device, const WindowCase& windowCase);
void checkTmgruWindow(WindowDevice& device, const WindowCase& windowCase);
// The tanh cells: the plain RNN and Sutskever's mRNN (cuda_rnn_window_checks.cpp).
void checkRnnWindow(WindowDevice& device, const WindowCase& windowCase);
void checkMrnnWindow(WindowDevice& device, const WindowCase& windowCase);

// The Mogrifier's rounds: how many, full or low-rank matrices, zigzag or not.
struct MogrifierCase {
  int64_t rounds = 0;
  int64_t rank = 0;  // 0: full matrices
  bool zigzag = true;

  std::string label() const;
};

inline constexpr MogrifierCase kMogrifierCases[] = {{3, 0, true}, {4, 3, true}, {3, 3, false}};

void checkMogrifierWindow(WindowDevice& device, const WindowCase& windowCase,
                          const MogrifierCase& mogrifierCase);

// Every window at float32 and with bfloat16 products (what bf16 autocast runs).
inline constexpr engine::cuda::ProductPrecision kPrecisions[] = {
    engine::cuda::ProductPrecision::Float32, engine::cuda::ProductPrecision::Bfloat16};

// The four cases: with and without a mask, with and without step gradients.
inline constexpr WindowCase kWindowCases[] = {
    {false, true}, {false, false}, {true, true}, {true, false}};

// `check` (one of the above) on a fresh Device (HostWindowDevice or CudaWindowDevice) for
// every precision and every window case.
template <class Device>
void checkEveryCase(void (*check)(WindowDevice&, const WindowCase&)) {
  for (const auto precision : kPrecisions) {
    for (const auto& windowCase : kWindowCases) {
      Device device(precision);
      check(device, windowCase);
    }
  }
}

}  // namespace mrnn::test
