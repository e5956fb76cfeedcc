// mrnn-bench-train: training symbols/s of one engine model (or LibTorch's own
// torch::nn::LSTM, "--cell torch-lstm") in the shape of ../shared/bench/peer_mlstm.py, so the
// two can run side by side: embedding -> one recurrent layer -> softmax, Adam, clipping at 1,
// truncated BPTT on random symbols. Prints one line ending in chars_per_s=N, like the peer.
// --fused 0 runs the engine's generic per-step loop instead of a cell's fused window.

#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "engine/config/cell_type.h"
#include "engine/models/language_model.h"
#include "engine/training/train_step.h"

namespace {

std::map<std::string, std::string> parse(int argc, char** argv) {
  std::map<std::string, std::string> options{{"cell", "mlstm"}, {"hidden", "512"}, {"emb", "64"},
                                             {"batch", "32"},   {"bptt", "100"},   {"steps", "10"},
                                             {"vocab", "128"},  {"threads", "0"},  {"fused", "1"}};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key.rfind("--", 0) != 0 || !options.count(key.substr(2))) {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      std::exit(2);
    }
    options[key.substr(2)] = argv[i + 1];
  }
  return options;
}

// LibTorch's fused LSTM in the same model shape, as the reference for the engine's cells.
struct TorchLstmModel : torch::nn::Module {
  TorchLstmModel(int64_t vocab, int64_t emb, int64_t hidden)
      : embedding(register_module("embedding", torch::nn::Embedding(vocab, emb))),
        lstm(register_module("lstm", torch::nn::LSTM(emb, hidden))),
        output(register_module("output", torch::nn::Linear(hidden, vocab))) {}
  torch::nn::Embedding embedding;
  torch::nn::LSTM lstm;
  torch::nn::Linear output;
};

}  // namespace

int main(int argc, char** argv) {
  auto o = parse(argc, argv);
  const int64_t hidden = std::stoll(o["hidden"]), emb = std::stoll(o["emb"]);
  const int64_t batch = std::stoll(o["batch"]), bptt = std::stoll(o["bptt"]);
  const int64_t steps = std::stoll(o["steps"]), vocab = std::stoll(o["vocab"]);
  if (std::stoi(o["threads"]) > 0) torch::set_num_threads(std::stoi(o["threads"]));
  torch::manual_seed(0);
  const auto data = torch::randint(0, vocab, {bptt + 1, batch}, torch::kLong);
  const auto inputs = data.narrow(0, 0, bptt);
  const auto targets = data.narrow(0, 1, bptt);
  std::function<void()> step;
  int64_t parameters = 0;

  std::unique_ptr<mrnn::engine::LanguageModel> model;
  std::shared_ptr<TorchLstmModel> reference;
  std::unique_ptr<torch::optim::Adam> adam;
  mrnn::engine::ModelState state;
  std::tuple<torch::Tensor, torch::Tensor> lstmState;
  if (o["cell"] == "torch-lstm") {
    reference = std::make_shared<TorchLstmModel>(vocab, emb, hidden);
    adam = std::make_unique<torch::optim::Adam>(reference->parameters(),
                                                torch::optim::AdamOptions(1e-3));
    lstmState = {torch::zeros({1, batch, hidden}), torch::zeros({1, batch, hidden})};
    step = [&] {
      auto [y, next] = reference->lstm->forward(reference->embedding->forward(inputs), lstmState);
      lstmState = {std::get<0>(next).detach(), std::get<1>(next).detach()};
      const auto logits = reference->output->forward(y);
      const auto loss =
          torch::nn::functional::cross_entropy(logits.reshape({-1, vocab}), targets.reshape(-1));
      adam->zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(reference->parameters(), 1.0);
      adam->step();
    };
    for (const auto& p : reference->parameters()) parameters += p.numel();
  } else {
    const auto type = mrnn::engine::cellTypeFromName(o["cell"]);
    if (!type) {
      std::fprintf(stderr, "unknown cell '%s'\n", o["cell"].c_str());
      return 2;
    }
    mrnn::engine::ModelConfig config;
    config.input.embeddingSize = emb;
    mrnn::engine::LayerConfig layer;
    layer.type = *type;
    layer.hiddenSize = hidden;
    config.layers = {layer};
    model = std::make_unique<mrnn::engine::LanguageModel>(config, vocab);
    // --fused 0: the generic per-step loop, to measure what the fused window buys.
    model->setFusedKernels(o["fused"] != "0");
    adam =
        std::make_unique<torch::optim::Adam>(model->parameters(), torch::optim::AdamOptions(1e-3));
    state = model->initialState(batch);
    step = [&] {
      state.detach();
      mrnn::engine::optimisationStep(*model, *adam, state, inputs, targets, {}, 1.0, false);
    };
    parameters = model->parameterCount();
  }

  step();  // warm-up, as the peer does
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < steps; ++i) step();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s hidden=%lld batch=%lld bptt=%lld params=%lld chars_per_s=%.0f\n",
              o["cell"].c_str(), static_cast<long long>(hidden), static_cast<long long>(batch),
              static_cast<long long>(bptt), static_cast<long long>(parameters),
              static_cast<double>(steps * batch * bptt) / seconds);
  return 0;
}
