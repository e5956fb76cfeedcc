// The one autograd Function every GPU window runs through (engine/models/gpu_window_function.h)
// run on the CPU: the GPU windows on HostWindowOps and CPU tensors, against the CPU fused
// windows under autograd. So what the CUDA glue does (sizing from the inputs, allocating by
// the layouts' shapes, handing the data over, saving what the backward reads, the gradients'
// order, the carried state gradients, the product precision kept for the backward) is checked
// on every machine; only DeviceCall (a device pointer and LibTorch's stream) is not.

#include <torch/torch.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/cuda/cuda_gru_window.h"
#include "engine/cuda/cuda_lstm_window.h"
#include "engine/cuda/cuda_mgru_window.h"
#include "engine/cuda/cuda_mlstm_window.h"
#include "engine/cuda/cuda_mrnn_window.h"
#include "engine/cuda/cuda_rnn_window.h"
#include "engine/cuda/cuda_tmgru_window.h"
#include "engine/cuda/cuda_tmlstm_window.h"
#include "engine/models/fused_gru_window.h"
#include "engine/models/fused_lstm_window.h"
#include "engine/models/fused_mgru_window.h"
#include "engine/models/fused_mlstm_window.h"
#include "engine/models/fused_mrnn_window.h"
#include "engine/models/fused_rnn_window.h"
#include "engine/models/fused_tmgru_window.h"
#include "engine/models/fused_tmlstm_window.h"
#include "engine/models/gpu_window_function.h"
#include "host_window_ops.h"
#include "test_harness.h"

namespace engine = mrnn::engine;
using engine::FusedWindowResult;
using engine::WindowTensors;

namespace {

constexpr int64_t kT = 5, kB = 3, kH = 8, kM = 6;

// The device call on the CPU; it notes each call's precision and whether it rounded operands.
struct HostCall {
  HostCall(const torch::Tensor&, engine::cuda::ProductPrecision precision) : ops(precision) {}
  ~HostCall() { calls().push_back({ops.precision(), ops.roundings() > 0}); }
  HostCall(const HostCall&) = delete;
  HostCall& operator=(const HostCall&) = delete;

  struct Seen {
    engine::cuda::ProductPrecision precision;
    bool rounded;
  };
  static std::vector<Seen>& calls() {
    static std::vector<Seen> seen;
    return seen;
  }

  mrnn::test::HostWindowOps ops;
};

// The loss: each step's h, the final h and, for the LSTMs, the final c, weighted.
torch::Tensor lossOf(const FusedWindowResult& out, const std::vector<torch::Tensor>& w) {
  auto loss = (out.hs * w[0]).sum() + (out.h * w[1]).sum();
  if (out.c.defined()) loss = loss + (out.c * w[2]).sum();
  return loss;
}

struct Run {
  FusedWindowResult out;
  std::vector<torch::Tensor> gradients;  // each input's but the mask, in input order
};

template <typename Window>
Run runWith(const WindowTensors<Window>& given, const std::vector<torch::Tensor>& w,
            const std::function<FusedWindowResult(const WindowTensors<Window>&)>& window) {
  WindowTensors<Window> in;
  std::vector<torch::Tensor> leaves;
  engine::forEachSavedPair(given, in, [&](const torch::Tensor& from, torch::Tensor& to) {
    const bool isMask = &from == &given.mask;
    to = isMask ? from : from.clone().requires_grad_(true);
    if (!isMask) leaves.push_back(to);
  });
  Run run;
  run.out = window(in);
  lossOf(run.out, w).backward();
  for (const auto& leaf : leaves) run.gradients.push_back(leaf.grad());
  return run;
}

void expectClose(const torch::Tensor& actual, const torch::Tensor& expected,
                 const std::string& what) {
  EXPECT_MSG(actual.defined() && actual.sizes() == expected.sizes(), what << ": shapes differ");
  const double scale = 1.0 + expected.abs().max().item<double>();
  const double difference = (actual - expected).abs().max().item<double>();
  EXPECT_MSG(difference <= 1e-4 * scale, what << " differs by " << difference);
}

// The GPU window through the one autograd Function, masked and not, against the CPU window.
template <typename Window>
void checkAgainstCpu(const typename Window::Sizes& sizes, const std::string& name,
                     const std::function<FusedWindowResult(const WindowTensors<Window>&)>& cpu) {
  for (const bool masked : {false, true}) {
    torch::manual_seed(masked ? 7 : 3);
    WindowTensors<Window> in;
    engine::forEachSavedPair(
        Window::inputShapes(sizes), in,
        [](const engine::WindowShape& shape, torch::Tensor& t) { t = torch::randn(shape) * 0.4; });
    in.mask = masked ? (torch::rand({kB, kH}) > 0.3).to(torch::kFloat) / 0.7 : torch::Tensor();
    const std::vector<torch::Tensor> w = {torch::randn({kT, kB, kH}), torch::randn({kB, kH}),
                                          torch::randn({kB, kH})};
    const auto expected = runWith<Window>(in, w, cpu);
    const auto actual = runWith<Window>(in, w, [](const WindowTensors<Window>& x) {
      return engine::runGpuWindow<Window, HostCall>(x, false);
    });
    const std::string label = name + (masked ? ", masked" : ", unmasked");
    expectClose(actual.out.hs, expected.out.hs, label + ": every step's h");
    expectClose(actual.out.h, expected.out.h, label + ": the final h");
    EXPECT_EQ(actual.out.c.defined(), Window::kCarriesCell);
    if (Window::kCarriesCell) expectClose(actual.out.c, expected.out.c, label + ": the final c");
    EXPECT_EQ(actual.gradients.size(), expected.gradients.size());
    for (size_t i = 0; i < expected.gradients.size(); ++i) {
      expectClose(actual.gradients[i], expected.gradients[i],
                  label + ": the gradient of input " + std::to_string(i));
    }
  }
}

}  // namespace

MRNN_TEST(the_one_gpu_window_function_runs_every_cell_as_its_cpu_window) {
  checkAgainstCpu<engine::RnnWindow>({kT, kB, kH}, "RNN", [](const auto& in) {
    return engine::fusedRnnWindow(in.xp, in.h0, in.wHh, in.mask);
  });
  checkAgainstCpu<engine::MrnnWindow>({kT, kB, kH, kM}, "mRNN", [](const auto& in) {
    return engine::fusedMrnnWindow(in.xp, in.h0, in.wMh, in.wHm, in.mask);
  });
  checkAgainstCpu<engine::GruWindow>({kT, kB, kH}, "GRU", [](const auto& in) {
    return engine::fusedGruWindow(in.xp, in.h0, in.wZr, in.wH, in.mask);
  });
  checkAgainstCpu<engine::MgruWindow>({kT, kB, kH, kM}, "mGRU", [](const auto& in) {
    return engine::fusedMgruWindow(in.xp, in.h0, in.wMh, in.vZr, in.vH, in.mask);
  });
  checkAgainstCpu<engine::TmgruWindow>({kT, kB, kH, kM}, "true mGRU", [](const auto& in) {
    return engine::fusedTmgruWindow(in.xp, in.h0, in.wMhZr, in.wMhH, in.v, in.mask);
  });
  checkAgainstCpu<engine::LstmWindow>({kT, kB, kH}, "LSTM", [](const auto& in) {
    return engine::fusedLstmWindow(in.xp, in.h0, in.c0, in.wH, in.mask);
  });
  checkAgainstCpu<engine::TmlstmWindow>({kT, kB, kH, kM}, "true mLSTM", [](const auto& in) {
    return engine::fusedTmlstmWindow(in.xp, in.h0, in.c0, in.wMh, in.v, in.mask);
  });
  checkAgainstCpu<engine::MlstmWindow>({kT, kB, kH, kM}, "mLSTM", [](const auto& in) {
    return engine::fusedMlstmWindow(in.xp, in.h0, in.c0, in.wMh, in.wM, in.mask);
  });
}

MRNN_TEST(the_backward_multiplies_at_the_forwards_precision) {
  const engine::MlstmWindowSizes sizes{kT, kB, kH, kM};
  WindowTensors<engine::MlstmWindow> in;
  engine::forEachSavedPair(engine::MlstmWindow::inputShapes(sizes), in,
                           [](const engine::WindowShape& shape, torch::Tensor& t) {
                             t = torch::randn(shape).requires_grad_(true);
                           });
  in.mask = torch::Tensor();
  HostCall::calls().clear();
  const auto out = engine::runGpuWindow<engine::MlstmWindow, HostCall>(in, true);
  out.hs.sum().backward();
  const auto& calls = HostCall::calls();
  EXPECT_EQ(calls.size(), 2u);  // the forward's, the backward's
  for (const auto& call : calls) {
    EXPECT(call.precision == engine::cuda::ProductPrecision::Bfloat16);
    EXPECT(call.rounded);
  }
}

MRNN_TEST(a_window_without_gradients_keeps_nothing_for_a_backward) {
  const engine::LstmWindowSizes sizes{kT, kB, kH};
  WindowTensors<engine::LstmWindow> in;
  engine::forEachSavedPair(
      engine::LstmWindow::inputShapes(sizes), in,
      [](const engine::WindowShape& shape, torch::Tensor& t) { t = torch::randn(shape); });
  in.mask = torch::Tensor();
  const auto out = engine::runGpuWindow<engine::LstmWindow, HostCall>(in, false);
  EXPECT(!out.hs.requires_grad());
  EXPECT_EQ(out.hs.sizes(), torch::IntArrayRef({kT, kB, kH}));
  EXPECT_EQ(out.c.sizes(), torch::IntArrayRef({kB, kH}));
}

MRNN_TEST(a_window_refuses_an_input_of_the_wrong_shape_before_any_kernel_reads_it) {
  const engine::MlstmWindowSizes sizes{kT, kB, kH, kM};
  WindowTensors<engine::MlstmWindow> in;
  engine::forEachSavedPair(
      engine::MlstmWindow::inputShapes(sizes), in,
      [](const engine::WindowShape& shape, torch::Tensor& t) { t = torch::randn(shape); });
  in.wM = torch::randn({kM, 4 * kH});  // transposed
  EXPECT_THROWS_WITH(std::invalid_argument,
                     (engine::runGpuWindow<engine::MlstmWindow, HostCall>(in, false)),
                     "input 4 is [6, 32], expected [32, 6]");
  in.wM = torch::randn({4 * kH, kM});
  in.xp = torch::randn({kT, kB, kM + 4 * kH + 1});  // a row one wider than M + 4H
  EXPECT_THROWS_WITH(std::invalid_argument,
                     (engine::runGpuWindow<engine::MlstmWindow, HostCall>(in, false)),
                     "input 0 is [5, 3, 39], expected [5, 3, 38]");
}
