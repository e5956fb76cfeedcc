#include "engine/bench/torch_lstm_probe.h"

#include <torch/torch.h>

#include <sstream>

#include "engine/bench/flop_count.h"
#include "engine/bench/probe_timing.h"
#include "engine/devices/autocast_scope.h"

namespace mrnn::engine {

namespace {

struct TorchLstmModel : torch::nn::Module {
  TorchLstmModel(int64_t vocab, int64_t emb, int64_t hidden)
      : embedding(register_module("embedding", torch::nn::Embedding(vocab, emb))),
        lstm(register_module("lstm", torch::nn::LSTM(emb, hidden))),
        output(register_module("output", torch::nn::Linear(hidden, vocab))) {}
  torch::nn::Embedding embedding;
  torch::nn::LSTM lstm;
  torch::nn::Linear output;
};

using LstmState = std::tuple<torch::Tensor, torch::Tensor>;

}  // namespace

ProbeResult runTorchLstmProbe(const BenchShape& shape, BenchMeasure measure,
                              const torch::Device& device) {
  auto model = std::make_shared<TorchLstmModel>(shape.vocab, shape.embedding, shape.hidden);
  model->to(device);
  ProbeResult result;
  for (const auto& p : model->parameters()) result.parameters += p.numel();
  const auto floatOptions = torch::TensorOptions(torch::kFloat32).device(device);
  // Named references, not structured bindings: C++17 lambdas cannot capture those.
  const ProbeWindow window = randomWindow(shape.vocab, shape.bptt, shape.batch, device);
  const torch::Tensor& inputs = window.inputs;
  const torch::Tensor& targets = window.targets;
  const auto zeros = [&](int64_t batch) {
    return LstmState{torch::zeros({1, batch, shape.hidden}, floatOptions),
                     torch::zeros({1, batch, shape.hidden}, floatOptions)};
  };
  // bf16: autocast around the forward pass and the loss, as the engine's training step has it;
  // the backward pass follows the forward's types.
  const bool bf16 = shape.precision == BenchPrecision::Bf16;
  const auto noteDtype = [&](const torch::Tensor& y) {
    std::ostringstream name;  // "Float", "BFloat16", "Half" in LibTorch 1.13 and 2.x alike
    name << y.scalar_type();
    result.recurrentDtype = name.str();
  };
  double seconds = 0.0;
  int64_t symbols = shape.steps * shape.batch * shape.bptt;
  if (measure == BenchMeasure::Train) {
    result.flopsPerSymbol = trainingFlopsPerSymbol(*model);
    torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
    auto state = zeros(shape.batch);
    seconds = timeRepeated(device, shape.steps, [&] {
      torch::Tensor loss;
      {
        AutocastScope autocast(bf16);
        auto [y, next] = model->lstm->forward(model->embedding->forward(inputs), state);
        noteDtype(y);
        // Back to float32 between windows (autocast may hand back bfloat16 states).
        state = {std::get<0>(next).detach().to(torch::kFloat32),
                 std::get<1>(next).detach().to(torch::kFloat32)};
        const auto logits = model->output->forward(y);
        loss = torch::nn::functional::cross_entropy(logits.reshape({-1, shape.vocab}),
                                                    targets.reshape(-1));
      }
      adam.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      adam.step();
    });
  } else if (measure == BenchMeasure::Eval) {
    result.flopsPerSymbol = forwardFlopsPerSymbol(*model);
    model->eval();
    torch::NoGradGuard noGrad;
    auto state = zeros(shape.batch);
    seconds = timeRepeated(device, shape.steps, [&] {
      AutocastScope autocast(bf16);
      auto [y, next] = model->lstm->forward(model->embedding->forward(inputs), state);
      noteDtype(y);
      state = {std::get<0>(next).to(torch::kFloat32), std::get<1>(next).to(torch::kFloat32)};
      const auto logProbabilities = torch::log_softmax(model->output->forward(y), 2);
      logProbabilities.gather(2, targets.unsqueeze(2)).mean().item<double>();
    });
  } else {
    result.flopsPerSymbol = forwardFlopsPerSymbol(*model);
    model->eval();
    torch::NoGradGuard noGrad;
    symbols = shape.sampleLength;
    seconds = timeRepeated(device, 1, [&] {
      AutocastScope autocast(bf16);
      auto state = zeros(1);
      auto x = torch::zeros({1, 1}, torch::TensorOptions(torch::kLong).device(device));
      for (int64_t i = 0; i < shape.sampleLength; ++i) {
        auto [y, next] = model->lstm->forward(model->embedding->forward(x), state);
        state = next;
        if (i == 0) noteDtype(y);
        // multinomial's input in float32, whatever autocast's lists do with the softmax.
        const auto probabilities =
            torch::softmax(model->output->forward(y[0]).to(torch::kFloat32), -1);
        x = torch::multinomial(probabilities, 1);
      }
      x.item<int64_t>();
    });
  }
  result.symbolsPerSecond = static_cast<double>(symbols) / seconds;
  return result;
}

}  // namespace mrnn::engine
