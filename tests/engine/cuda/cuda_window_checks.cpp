#include "cuda_window_checks.h"

#include <torch/torch.h>

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "engine/cuda/cuda_gru_window.h"
#include "engine/cuda/cuda_lstm_window.h"
#include "engine/cuda/cuda_mgru_window.h"
#include "engine/cuda/cuda_mlstm_window.h"
#include "engine/cuda/cuda_mogrifier_window.h"
#include "engine/models/fused_gru_window.h"
#include "engine/models/fused_lstm_window.h"
#include "engine/models/fused_mgru_window.h"
#include "engine/models/fused_mlstm_window.h"
#include "engine/models/fused_mogrifier_window.h"
#include "test_harness.h"
#include "window_check_support.h"

namespace gpu = mrnn::engine::cuda;
namespace cpu = mrnn::engine;

namespace mrnn::test {

using namespace window_checks;

std::string WindowCase::label() const {
  return std::string(masked ? "masked" : "unmasked") +
         (stepGradients ? ", every step's output in the loss" : ", final state only");
}

void checkMlstmWindow(WindowDevice& device, const WindowCase& windowCase) {
  const int64_t T = kT, B = kB, H = kH, M = kM, X = M + 4 * H;
  torch::manual_seed(19);
  const Named inputs{{"xp", torch::randn({T, B, X})},
                     {"h0", torch::randn({B, H}) * 0.5},
                     {"c0", torch::randn({B, H}) * 0.5},
                     {"wMh", torch::randn({M, H}) * 0.3},
                     {"wM", torch::randn({4 * H, M}) * 0.3}};
  const auto mask = stateMask(windowCase);
  const auto w = lossWeights(windowCase, true);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        return cpu::fusedMlstmWindow(in[0], in[1], in[2], in[3], in[4], mask);
      },
      w);

  const auto shape = cpu::mlstmWindowShapes({T, B, H, M});
  gpu::MlstmWindowForwardBuffers f;
  f.xp = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.c0 = device.upload(inputs[2].second);
  f.wMh = device.upload(inputs[3].second);
  f.wM = device.upload(inputs[4].second);
  f.mask = maskOn(device, mask);
  f.hs = device.scratch(T * B * H);
  f.c = device.scratch(cpu::elementCount(shape.c));
  f.hin = device.scratch(cpu::elementCount(shape.hin));
  f.u = device.scratch(cpu::elementCount(shape.u));
  f.m = device.scratch(cpu::elementCount(shape.m));
  f.gates = device.scratch(cpu::elementCount(shape.gates));
  f.tanhC = device.scratch(cpu::elementCount(shape.tanhC));
  gpu::windowForward({T, B, H, M}, f, device.ops());
  gpu::MlstmWindowBackwardBuffers b;
  b.saved = gpu::savedBy(f);
  b.dHs = stepsOn(device, w);
  b.dh = device.upload(w.h);
  b.dc = device.upload(w.c);
  b.dXp = device.scratch(T * B * X);
  b.dU = device.scratch(T * B * M);
  b.dM = device.scratch(B * M);
  b.dWmh = device.scratch(M * H);
  b.dWm = device.scratch(4 * H * M);
  gpu::windowBackward({T, B, H, M}, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  const Named actual{{"hs", hs},
                     {"h", hs.select(0, T - 1)},
                     {"c", device.download(f.c + T * B * H, {B, H})},
                     {"dxp", device.download(b.dXp, {T, B, X})},
                     {"dh0", device.download(b.dh, {B, H})},
                     {"dc0", device.download(b.dc, {B, H})},
                     {"dwMh", device.download(b.dWmh, {M, H})},
                     {"dwM", device.download(b.dWm, {4 * H, M})}};
  compare(actual, expected, "mLSTM window, " + windowCase.label(), device.ops().precision());
}

void checkLstmWindow(WindowDevice& device, const WindowCase& windowCase) {
  const int64_t T = kT, B = kB, H = kH;
  torch::manual_seed(29);
  const Named inputs{{"xp", torch::randn({T, B, 4 * H})},
                     {"h0", torch::randn({B, H}) * 0.5},
                     {"c0", torch::randn({B, H}) * 0.5},
                     {"wH", torch::randn({4 * H, H}) * 0.3}};
  const auto mask = stateMask(windowCase);
  const auto w = lossWeights(windowCase, true);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        return cpu::fusedLstmWindow(in[0], in[1], in[2], in[3], mask);
      },
      w);

  const auto shape = cpu::lstmWindowShapes({T, B, H});
  gpu::LstmWindowForwardBuffers f;
  f.xp = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.c0 = device.upload(inputs[2].second);
  f.wH = device.upload(inputs[3].second);
  f.mask = maskOn(device, mask);
  f.hs = device.scratch(T * B * H);
  f.c = device.scratch(cpu::elementCount(shape.c));
  f.hin = device.scratch(cpu::elementCount(shape.hin));
  f.gates = device.scratch(cpu::elementCount(shape.gates));
  f.tanhC = device.scratch(cpu::elementCount(shape.tanhC));
  gpu::windowForward({T, B, H}, f, device.ops());
  gpu::LstmWindowBackwardBuffers b;
  b.saved = gpu::savedBy(f);
  b.dHs = stepsOn(device, w);
  b.dh = device.upload(w.h);
  b.dc = device.upload(w.c);
  b.dXp = device.scratch(T * B * 4 * H);
  b.dWh = device.scratch(4 * H * H);
  gpu::windowBackward({T, B, H}, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  const Named actual{{"hs", hs},
                     {"h", hs.select(0, T - 1)},
                     {"c", device.download(f.c + T * B * H, {B, H})},
                     {"dxp", device.download(b.dXp, {T, B, 4 * H})},
                     {"dh0", device.download(b.dh, {B, H})},
                     {"dc0", device.download(b.dc, {B, H})},
                     {"dwH", device.download(b.dWh, {4 * H, H})}};
  compare(actual, expected, "LSTM window, " + windowCase.label(), device.ops().precision());
}

void checkGruWindow(WindowDevice& device, const WindowCase& windowCase) {
  const int64_t T = kT, B = kB, H = kH;
  torch::manual_seed(31);
  const Named inputs{{"xp", torch::randn({T, B, 3 * H})},
                     {"h0", torch::randn({B, H}) * 0.5},
                     {"wZr", torch::randn({2 * H, H}) * 0.3},
                     {"wH", torch::randn({H, H}) * 0.3}};
  const auto mask = stateMask(windowCase);
  const auto w = lossWeights(windowCase, false);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        return cpu::fusedGruWindow(in[0], in[1], in[2], in[3], mask);
      },
      w);

  const auto shape = cpu::gruWindowShapes({T, B, H});
  gpu::GruWindowForwardBuffers f;
  f.xp = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.wZr = device.upload(inputs[2].second);
  f.wH = device.upload(inputs[3].second);
  f.mask = maskOn(device, mask);
  f.hs = device.scratch(cpu::elementCount(shape.hs));
  f.hin = device.scratch(cpu::elementCount(shape.hin));
  f.gates = device.scratch(cpu::elementCount(shape.gates));
  f.rh = device.scratch(cpu::elementCount(shape.rh));
  gpu::windowForward({T, B, H}, f, device.ops());
  gpu::GruWindowBackwardBuffers b;
  b.saved = gpu::savedBy(f);
  b.dHs = stepsOn(device, w);
  b.dh = device.upload(w.h);
  b.dXp = device.scratch(T * B * 3 * H);
  b.dhStep = device.scratch(B * H);
  b.dRh = device.scratch(B * H);
  b.dHin = device.scratch(B * H);
  b.dWzr = device.scratch(2 * H * H);
  b.dWh = device.scratch(H * H);
  gpu::windowBackward({T, B, H}, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  const Named actual{{"hs", hs},
                     {"h", hs.select(0, T - 1)},
                     {"dxp", device.download(b.dXp, {T, B, 3 * H})},
                     {"dh0", device.download(b.dh, {B, H})},
                     {"dwZr", device.download(b.dWzr, {2 * H, H})},
                     {"dwH", device.download(b.dWh, {H, H})}};
  compare(actual, expected, "GRU window, " + windowCase.label(), device.ops().precision());
}

void checkMgruWindow(WindowDevice& device, const WindowCase& windowCase) {
  const int64_t T = kT, B = kB, H = kH, M = kM, G = 2 * H + M, X = M + G;
  torch::manual_seed(37);
  const Named inputs{{"xp", torch::randn({T, B, X})},
                     {"h0", torch::randn({B, H}) * 0.5},
                     {"wMh", torch::randn({M, H}) * 0.3},
                     {"vZr", torch::randn({H + M, M}) * 0.3},
                     {"vH", torch::randn({H, M}) * 0.3}};
  const auto mask = stateMask(windowCase);
  const auto w = lossWeights(windowCase, false);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        return cpu::fusedMgruWindow(in[0], in[1], in[2], in[3], in[4], mask);
      },
      w);

  const auto shape = cpu::mgruWindowShapes({T, B, H, M});
  gpu::MgruWindowForwardBuffers f;
  f.xp = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.wMh = device.upload(inputs[2].second);
  f.vZr = device.upload(inputs[3].second);
  f.vH = device.upload(inputs[4].second);
  f.mask = maskOn(device, mask);
  f.hs = device.scratch(cpu::elementCount(shape.hs));
  f.hin = device.scratch(cpu::elementCount(shape.hin));
  f.u = device.scratch(cpu::elementCount(shape.u));
  f.m = device.scratch(cpu::elementCount(shape.m));
  f.gates = device.scratch(cpu::elementCount(shape.gates));
  f.rm = device.scratch(cpu::elementCount(shape.rm));
  gpu::windowForward({T, B, H, M}, f, device.ops());
  gpu::MgruWindowBackwardBuffers b;
  b.saved = gpu::savedBy(f);
  b.dHs = stepsOn(device, w);
  b.dh = device.upload(w.h);
  b.dXp = device.scratch(T * B * X);
  b.dU = device.scratch(T * B * M);
  b.dM = device.scratch(B * M);
  b.dhStep = device.scratch(B * H);
  b.dHin = device.scratch(B * H);
  b.dWmh = device.scratch(M * H);
  b.dVzr = device.scratch((H + M) * M);
  b.dVh = device.scratch(H * M);
  gpu::windowBackward({T, B, H, M}, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  const Named actual{{"hs", hs},
                     {"h", hs.select(0, T - 1)},
                     {"dxp", device.download(b.dXp, {T, B, X})},
                     {"dh0", device.download(b.dh, {B, H})},
                     {"dwMh", device.download(b.dWmh, {M, H})},
                     {"dvZr", device.download(b.dVzr, {H + M, M})},
                     {"dvH", device.download(b.dVh, {H, M})}};
  compare(actual, expected, "mGRU window, " + windowCase.label(), device.ops().precision());
}

std::string MogrifierCase::label() const {
  return std::to_string(rounds) + " rounds, " +
         (rank > 0 ? "rank " + std::to_string(rank) : std::string("full matrices")) +
         (zigzag ? ", zigzag" : ", no zigzag");
}

void checkMogrifierWindow(WindowDevice& device, const WindowCase& windowCase,
                          const MogrifierCase& mogrifierCase) {
  engine::MogrifierWindowLayout w;
  w.T = kT;
  w.B = kB;
  w.I = 10;  // differs from H
  w.H = kH;
  w.rounds = mogrifierCase.rounds;
  w.rank = mogrifierCase.rank;
  w.zigzag = mogrifierCase.zigzag;
  const int64_t T = w.T, B = w.B, I = w.I, H = w.H, G = 4 * H, K = w.rank;
  torch::manual_seed(43);
  Named inputs{{"x", torch::randn({T, B, I})},     {"h0", torch::randn({B, H}) * 0.5},
               {"c0", torch::randn({B, H}) * 0.5}, {"wX", torch::randn({G, I}) * 0.3},
               {"b", torch::randn({G}) * 0.1},     {"wH", torch::randn({G, H}) * 0.3}};
  for (int64_t i = 1; i <= w.rounds; ++i) {
    const std::string round = "round" + std::to_string(i);
    if (K == 0) {
      inputs.emplace_back(round, torch::randn({w.rows(i), w.cols(i)}) * 0.3);
    } else {
      inputs.emplace_back(round + "left", torch::randn({w.rows(i), K}) * 0.4);
      inputs.emplace_back(round + "right", torch::randn({K, w.cols(i)}) * 0.4);
    }
  }
  const auto mask = stateMask(windowCase);
  const auto loss = lossWeights(windowCase, true);
  const auto expected = cpuWindow(
      inputs,
      [&](const std::vector<torch::Tensor>& in) {
        const std::vector<torch::Tensor> rounds(in.begin() + 6, in.end());
        return cpu::fusedMogrifierWindow(in[0], in[1], in[2], in[3], in[4], in[5], rounds, K > 0,
                                         w.zigzag, mask);
      },
      loss);

  gpu::MogrifierWindowWeights weights;
  weights.wX = device.upload(inputs[3].second);
  weights.b = device.upload(inputs[4].second);
  weights.wH = device.upload(inputs[5].second);
  for (size_t k = 6; k < inputs.size(); ++k) {
    const float* p = device.upload(inputs[k].second);
    if (K == 0) {
      weights.full.push_back(p);
    } else {
      ((k - 6) % 2 == 0 ? weights.left : weights.right).push_back(p);
    }
  }
  const int64_t odd = w.oddRounds(), even = w.evenRounds();
  gpu::MogrifierWindowForwardBuffers f;
  f.x = device.upload(inputs[0].second);
  f.h0 = device.upload(inputs[1].second);
  f.c0 = device.upload(inputs[2].second);
  f.mask = maskOn(device, mask);
  f.xR = device.scratch(odd * T * B * I);
  f.hR = device.scratch((even + 1) * T * B * H);
  f.sX = device.scratch(odd * T * B * I);
  f.sH = device.scratch(even * T * B * H);
  f.z = K > 0 ? device.scratch(w.rounds * T * B * K) : nullptr;
  f.gates = device.scratch(T * B * G);
  f.c = device.scratch((T + 1) * B * H);
  f.tanhC = device.scratch(T * B * H);
  f.hs = device.scratch(T * B * H);
  gpu::mogrifierWindowForward(w, weights, f, device.ops());
  gpu::MogrifierWindowBackwardBuffers b;
  b.x = f.x;
  b.mask = f.mask;
  b.xR = f.xR;
  b.hR = f.hR;
  b.sX = f.sX;
  b.sH = f.sH;
  b.z = f.z;
  b.gates = f.gates;
  b.c = f.c;
  b.tanhC = f.tanhC;
  b.dHs = stepsOn(device, loss);
  b.dh = device.upload(loss.h);
  b.dc = device.upload(loss.c);
  b.dX = device.scratch(T * B * I);
  b.dG = device.scratch(T * B * G);
  b.dPreX = device.scratch(odd * T * B * I);
  b.dPreH = device.scratch(even * T * B * H);
  b.dZ = K > 0 ? device.scratch(w.rounds * T * B * K) : nullptr;
  b.dHCur = device.scratch(B * H);
  b.dSrcX = device.scratch(B * I);
  b.dSrcH = device.scratch(B * H);
  b.dWx = device.scratch(G * I);
  b.db = device.scratch(G);
  b.dWh = device.scratch(G * H);
  for (int64_t i = 1; i <= w.rounds; ++i) {
    if (K == 0) {
      b.dFull.push_back(device.scratch(w.rows(i) * w.cols(i)));
    } else {
      b.dLeft.push_back(device.scratch(w.rows(i) * K));
      b.dRight.push_back(device.scratch(K * w.cols(i)));
    }
  }
  gpu::mogrifierWindowBackward(w, weights, b, device.ops());
  device.finish();
  const auto hs = device.download(f.hs, {T, B, H});
  Named actual{{"hs", hs},
               {"h", hs.select(0, T - 1)},
               {"c", device.download(f.c + T * B * H, {B, H})},
               {"dx", device.download(b.dX, {T, B, I})},
               {"dh0", device.download(b.dh, {B, H})},
               {"dc0", device.download(b.dc, {B, H})},
               {"dwX", device.download(b.dWx, {G, I})},
               {"db", device.download(b.db, {G})},
               {"dwH", device.download(b.dWh, {G, H})}};
  for (int64_t i = 1; i <= w.rounds; ++i) {
    const std::string round = "dround" + std::to_string(i);
    if (K == 0) {
      actual.emplace_back(round, device.download(b.dFull[i - 1], {w.rows(i), w.cols(i)}));
    } else {
      actual.emplace_back(round + "left", device.download(b.dLeft[i - 1], {w.rows(i), K}));
      actual.emplace_back(round + "right", device.download(b.dRight[i - 1], {K, w.cols(i)}));
    }
  }
  compare(actual, expected,
          "Mogrifier window, " + mogrifierCase.label() + ", " + windowCase.label(),
          device.ops().precision());
}

}  // namespace mrnn::test
