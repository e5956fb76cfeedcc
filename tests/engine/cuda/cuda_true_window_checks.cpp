// The true mLSTM's and true mGRU's GPU windows (one intermediate state per gate) against
// their CPU fused windows: cuda_window_checks.h's checks for Maupome & Meurs's true cells.

#include <torch/torch.h>

#include <vector>

#include "cuda_window_checks.h"
#include "engine/cuda/cuda_tmgru_window.h"
#include "engine/cuda/cuda_tmlstm_window.h"
#include "engine/models/fused_tmgru_window.h"
#include "engine/models/fused_tmlstm_window.h"
#include "window_check_support.h"

namespace gpu = mrnn::engine::cuda;
namespace cpu = mrnn::engine;

namespace mrnn::test {

using namespace window_checks;

void checkTmlstmWindow(WindowDevice& device, const WindowCase& windowCase) {
  const int64_t T = kT, B = kB, H = kH, M = kM, N = 4 * M, X = N + 4 * H;
  torch::manual_seed(41);
  const Named inputs{{"xp", torch::randn({T, B, X})},
                     {"h0", torch::randn({B, H}) * 0.5},
                     {"c0", torch::randn({B, H}) * 0.5},
                     {"wMh", torch::randn({N, H}) * 0.3},
                     {"v", torch::randn({4, H, M}) * 0.3}};
  const auto mask = stateMask(windowCase);
  const auto w = lossWeights(windowCase, true);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        return cpu::fusedTmlstmWindow(in[0], in[1], in[2], in[3], in[4], mask);
      },
      w);

  const auto shape = cpu::tmlstmWindowShapes({T, B, H, M});
  gpu::TmlstmWindowForwardBuffers f;
  f.xp = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.c0 = device.upload(inputs[2].second);
  f.wMh = device.upload(inputs[3].second);
  f.v = device.upload(inputs[4].second);
  f.mask = maskOn(device, mask);
  f.hs = device.scratch(T * B * H);
  f.c = device.scratch(cpu::elementCount(shape.c));
  f.hin = device.scratch(cpu::elementCount(shape.hin));
  f.u = device.scratch(cpu::elementCount(shape.u));
  f.m = device.scratch(cpu::elementCount(shape.m));
  f.gates = device.scratch(cpu::elementCount(shape.gates));
  f.tanhC = device.scratch(cpu::elementCount(shape.tanhC));
  gpu::windowForward({T, B, H, M}, f, device.ops());
  gpu::TmlstmWindowBackwardBuffers b;
  b.saved = gpu::savedBy(f);
  b.dHs = stepsOn(device, w);
  b.dh = device.upload(w.h);
  b.dc = device.upload(w.c);
  b.dXp = device.scratch(T * B * X);
  b.dU = device.scratch(T * B * N);
  b.dM = device.scratch(B * N);
  b.dWmh = device.scratch(N * H);
  b.dV = device.scratch(4 * H * M);
  gpu::windowBackward({T, B, H, M}, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  const Named actual{{"hs", hs},
                     {"h", hs.select(0, T - 1)},
                     {"c", device.download(f.c + T * B * H, {B, H})},
                     {"dxp", device.download(b.dXp, {T, B, X})},
                     {"dh0", device.download(b.dh, {B, H})},
                     {"dc0", device.download(b.dc, {B, H})},
                     {"dwMh", device.download(b.dWmh, {N, H})},
                     {"dv", device.download(b.dV, {4, H, M})}};
  compare(actual, expected, "true mLSTM window, " + windowCase.label(), device.ops().precision());
}

void checkTmgruWindow(WindowDevice& device, const WindowCase& windowCase) {
  const int64_t T = kT, B = kB, H = kH, M = kM, X = 3 * M + 3 * H;
  torch::manual_seed(43);
  const Named inputs{{"xp", torch::randn({T, B, X})},
                     {"h0", torch::randn({B, H}) * 0.5},
                     {"wMhZr", torch::randn({2 * M, H}) * 0.3},
                     {"wMhH", torch::randn({M, H}) * 0.3},
                     {"v", torch::randn({3, H, M}) * 0.3}};
  const auto mask = stateMask(windowCase);
  const auto w = lossWeights(windowCase, false);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        return cpu::fusedTmgruWindow(in[0], in[1], in[2], in[3], in[4], mask);
      },
      w);

  const auto shape = cpu::tmgruWindowShapes({T, B, H, M});
  gpu::TmgruWindowForwardBuffers f;
  f.xp = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.wMhZr = device.upload(inputs[2].second);
  f.wMhH = device.upload(inputs[3].second);
  f.v = device.upload(inputs[4].second);
  f.mask = maskOn(device, mask);
  f.hs = device.scratch(cpu::elementCount(shape.hs));
  f.hin = device.scratch(cpu::elementCount(shape.hin));
  f.uZr = device.scratch(cpu::elementCount(shape.uZr));
  f.mZr = device.scratch(cpu::elementCount(shape.mZr));
  f.gates = device.scratch(cpu::elementCount(shape.gates));
  f.rh = device.scratch(cpu::elementCount(shape.rh));
  f.uH = device.scratch(cpu::elementCount(shape.uH));
  f.mH = device.scratch(cpu::elementCount(shape.mH));
  gpu::windowForward({T, B, H, M}, f, device.ops());
  gpu::TmgruWindowBackwardBuffers b;
  b.saved = gpu::savedBy(f);
  b.dHs = stepsOn(device, w);
  b.dh = device.upload(w.h);
  b.dXp = device.scratch(T * B * X);
  b.dUZr = device.scratch(T * B * 2 * M);
  b.dUH = device.scratch(T * B * M);
  b.dMZr = device.scratch(B * 2 * M);
  b.dMH = device.scratch(B * M);
  b.dhStep = device.scratch(B * H);
  b.dHin = device.scratch(B * H);
  b.dWmhZr = device.scratch(2 * M * H);
  b.dWmhH = device.scratch(M * H);
  b.dV = device.scratch(3 * H * M);
  gpu::windowBackward({T, B, H, M}, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  const Named actual{{"hs", hs},
                     {"h", hs.select(0, T - 1)},
                     {"dxp", device.download(b.dXp, {T, B, X})},
                     {"dh0", device.download(b.dh, {B, H})},
                     {"dwMhZr", device.download(b.dWmhZr, {2 * M, H})},
                     {"dwMhH", device.download(b.dWmhH, {M, H})},
                     {"dv", device.download(b.dV, {3, H, M})}};
  compare(actual, expected, "true mGRU window, " + windowCase.label(), device.ops().precision());
}

}  // namespace mrnn::test
