// The tanh cells' tangent windows (engine/models/tangent_windows.h) against LibTorch's own
// forward-mode differentiation of the per-step recurrence: the same primal, the same tangent,
// in float64 to 1e-12 and in float32 (the fused window's primal) to 1e-5, with and without a
// state mask and a tangent on every input or only on some.

#include <torch/csrc/autograd/forward_grad.h>
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/models/tangent_mode.h"
#include "engine/models/tangent_windows.h"
#include "test_harness.h"

namespace engine = mrnn::engine;

namespace {

constexpr int64_t kT = 6, kB = 3, kH = 5, kM = 4;

class Level {
 public:
  Level() : level_(torch::autograd::ForwardADLevel::get_next_idx()) {}
  ~Level() { torch::autograd::ForwardADLevel::release_idx(level_); }
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;
  uint64_t index() const { return level_; }

 private:
  uint64_t level_;
};

// Each primal with a random tangent, or none where `tangents` says so.
std::vector<torch::Tensor> duals(const std::vector<torch::Tensor>& primals,
                                 const std::vector<bool>& tangents, uint64_t level) {
  std::vector<torch::Tensor> out;
  for (size_t i = 0; i < primals.size(); ++i) {
    out.push_back(tangents[i] ? torch::_make_dual(primals[i], torch::randn_like(primals[i]),
                                                  static_cast<int64_t>(level))
                              : primals[i]);
  }
  return out;
}

torch::Tensor masked(const torch::Tensor& h, const torch::Tensor& mask) {
  return mask.defined() ? h * mask : h;
}

void expectClose(const torch::Tensor& actual, const torch::Tensor& expected, double tolerance,
                 const std::string& what) {
  EXPECT_MSG(actual.defined() && expected.defined(), what << ": a tangent is missing");
  const double scale = 1.0 + expected.abs().max().item<double>();
  const double difference = (actual - expected).abs().max().item<double>();
  EXPECT_MSG(difference <= tolerance * scale, what << " differs by " << difference);
}

using Window = std::function<engine::FusedWindowResult(const std::vector<torch::Tensor>&,
                                                       const torch::Tensor&, uint64_t)>;
using Step = std::function<torch::Tensor(const std::vector<torch::Tensor>&, int64_t,
                                         const torch::Tensor&, const torch::Tensor&)>;

// inputs: xp, h0, then the recurrent weights. The loop: LibTorch's dual arithmetic, step by step.
void check(const std::string& name, const std::vector<torch::Tensor>& primals, const Window& window,
           const Step& step, torch::ScalarType dtype, double tolerance) {
  torch::NoGradGuard noGrad;
  const std::vector<std::vector<bool>> tangentCases = {
      std::vector<bool>(primals.size(), true), [&] {
        std::vector<bool> some(primals.size(), false);
        some.back() = true;  // a recurrent weight's tangent alone
        return some;
      }()};
  int run = 0;
  for (const auto& tangents : tangentCases) {
    for (const bool withMask : {false, true}) {
      torch::manual_seed(100 + run++);
      std::vector<torch::Tensor> typed;
      for (const auto& p : primals) typed.push_back(p.to(dtype));
      const auto mask =
          withMask ? ((torch::rand({kB, kH}) > 0.3).to(dtype) / 0.7) : torch::Tensor();
      Level level;
      const auto in = duals(typed, tangents, level.index());
      engine::FusedWindowResult actual;
      {
        engine::TangentMode mode(level.index());
        actual = window(in, mask, level.index());
      }
      std::vector<torch::Tensor> expected;
      torch::Tensor h = in[1];
      for (int64_t t = 0; t < kT; ++t) {
        h = step(in, t, masked(h, mask), h);
        expected.push_back(h);
      }
      const auto reference = torch::stack(expected);
      const std::string label = name + (withMask ? ", masked" : "") +
                                (tangents.front() ? ", every tangent" : ", one weight's tangent");
      const auto idx = static_cast<int64_t>(level.index());
      expectClose(actual.hs._fw_primal(idx), reference._fw_primal(idx), tolerance, label + ": h");
      expectClose(actual.hs._fw_grad(idx), reference._fw_grad(idx), tolerance,
                  label + ": h's tangent");
      expectClose(actual.h._fw_grad(idx), reference.select(0, kT - 1)._fw_grad(idx), tolerance,
                  label + ": the final h's tangent");
    }
  }
}

void checkRnn(torch::ScalarType dtype, double tolerance) {
  torch::manual_seed(1);
  const std::vector<torch::Tensor> primals = {
      torch::randn({kT, kB, kH}) * 0.5, torch::randn({kB, kH}) * 0.5, torch::randn({kH, kH}) * 0.5};
  check(
      "RNN", primals,
      [](const std::vector<torch::Tensor>& in, const torch::Tensor& mask, uint64_t level) {
        return engine::rnnTangentWindow(in[0], in[1], in[2], mask, level);
      },
      [](const std::vector<torch::Tensor>& in, int64_t t, const torch::Tensor& hin,
         const torch::Tensor&) { return torch::tanh(torch::addmm(in[0][t], hin, in[2].t())); },
      dtype, tolerance);
}

void checkMrnn(torch::ScalarType dtype, double tolerance) {
  torch::manual_seed(2);
  const std::vector<torch::Tensor> primals = {
      torch::randn({kT, kB, kM + kH}) * 0.5, torch::randn({kB, kH}) * 0.5,
      torch::randn({kM, kH}) * 0.5, torch::randn({kH, kM}) * 0.5};
  check(
      "mRNN", primals,
      [](const std::vector<torch::Tensor>& in, const torch::Tensor& mask, uint64_t level) {
        return engine::mrnnTangentWindow(in[0], in[1], in[2], in[3], mask, level);
      },
      [](const std::vector<torch::Tensor>& in, int64_t t, const torch::Tensor& hin,
         const torch::Tensor&) {
        const auto xp = in[0][t];
        const auto m = xp.narrow(1, 0, kM) * torch::mm(hin, in[2].t());
        return torch::tanh(torch::addmm(xp.narrow(1, kM, kH), m, in[3].t()));
      },
      dtype, tolerance);
}

}  // namespace

MRNN_TEST(the_rnn_tangent_window_equals_forward_mode_through_the_loop) {
  checkRnn(torch::kDouble, 1e-12);
  checkRnn(torch::kFloat, 1e-5);
}

MRNN_TEST(the_mrnn_tangent_window_equals_forward_mode_through_the_loop) {
  checkMrnn(torch::kDouble, 1e-12);
  checkMrnn(torch::kFloat, 1e-5);
}
