// The plain and multiplicative RNNs' GPU windows against their CPU fused windows:
// cuda_window_checks.h's checks for the tanh cells.

#include <torch/torch.h>

#include <vector>

#include "cuda_window_checks.h"
#include "engine/cuda/cuda_mrnn_window.h"
#include "engine/cuda/cuda_rnn_window.h"
#include "engine/models/fused_mrnn_window.h"
#include "engine/models/fused_rnn_window.h"
#include "window_check_support.h"

namespace gpu = mrnn::engine::cuda;
namespace cpu = mrnn::engine;

namespace mrnn::test {

using namespace window_checks;

void checkRnnWindow(WindowDevice& device, const WindowCase& windowCase) {
  const int64_t T = kT, B = kB, H = kH;
  torch::manual_seed(47);
  const Named inputs{{"xp", torch::randn({T, B, H})},
                     {"h0", torch::randn({B, H}) * 0.5},
                     {"wHh", torch::randn({H, H}) * 0.3}};
  const auto mask = stateMask(windowCase);
  const auto w = lossWeights(windowCase, false);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        return cpu::fusedRnnWindow(in[0], in[1], in[2], mask);
      },
      w);

  const auto shape = cpu::rnnWindowShapes({T, B, H});
  gpu::RnnWindowForwardBuffers f;
  f.xp = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.wHh = device.upload(inputs[2].second);
  f.mask = maskOn(device, mask);
  f.hs = device.scratch(cpu::elementCount(shape.hs));
  f.hin = device.scratch(cpu::elementCount(shape.hin));
  gpu::windowForward({T, B, H}, f, device.ops());
  gpu::RnnWindowBackwardBuffers b;
  b.saved = gpu::savedBy(f);
  b.dHs = stepsOn(device, w);
  b.dh = device.upload(w.h);
  b.dXp = device.scratch(T * B * H);
  b.dWhh = device.scratch(H * H);
  gpu::windowBackward({T, B, H}, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  const Named actual{{"hs", hs},
                     {"h", hs.select(0, T - 1)},
                     {"dxp", device.download(b.dXp, {T, B, H})},
                     {"dh0", device.download(b.dh, {B, H})},
                     {"dwHh", device.download(b.dWhh, {H, H})}};
  compare(actual, expected, "RNN window, " + windowCase.label(), device.ops().precision());
}

void checkMrnnWindow(WindowDevice& device, const WindowCase& windowCase) {
  const int64_t T = kT, B = kB, H = kH, M = kM, X = M + H;
  torch::manual_seed(53);
  const Named inputs{{"xp", torch::randn({T, B, X})},
                     {"h0", torch::randn({B, H}) * 0.5},
                     {"wMh", torch::randn({M, H}) * 0.3},
                     {"wHm", torch::randn({H, M}) * 0.3}};
  const auto mask = stateMask(windowCase);
  const auto w = lossWeights(windowCase, false);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        return cpu::fusedMrnnWindow(in[0], in[1], in[2], in[3], mask);
      },
      w);

  const auto shape = cpu::mrnnWindowShapes({T, B, H, M});
  gpu::MrnnWindowForwardBuffers f;
  f.xp = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.wMh = device.upload(inputs[2].second);
  f.wHm = device.upload(inputs[3].second);
  f.mask = maskOn(device, mask);
  f.hs = device.scratch(cpu::elementCount(shape.hs));
  f.hin = device.scratch(cpu::elementCount(shape.hin));
  f.u = device.scratch(cpu::elementCount(shape.u));
  f.m = device.scratch(cpu::elementCount(shape.m));
  gpu::windowForward({T, B, H, M}, f, device.ops());
  gpu::MrnnWindowBackwardBuffers b;
  b.saved = gpu::savedBy(f);
  b.dHs = stepsOn(device, w);
  b.dh = device.upload(w.h);
  b.dXp = device.scratch(T * B * X);
  b.dU = device.scratch(T * B * M);
  b.dM = device.scratch(B * M);
  b.dWmh = device.scratch(M * H);
  b.dWhm = device.scratch(H * M);
  gpu::windowBackward({T, B, H, M}, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  const Named actual{{"hs", hs},
                     {"h", hs.select(0, T - 1)},
                     {"dxp", device.download(b.dXp, {T, B, X})},
                     {"dh0", device.download(b.dh, {B, H})},
                     {"dwMh", device.download(b.dWmh, {M, H})},
                     {"dwHm", device.download(b.dWhm, {H, M})}};
  compare(actual, expected, "mRNN window, " + windowCase.label(), device.ops().precision());
}

}  // namespace mrnn::test
