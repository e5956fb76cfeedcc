#include "engine/bench/untrained_memory.h"

#include <torch/torch.h>

#include <stdexcept>

#include "engine/data/long_range_problem.h"
#include "engine/models/language_model.h"

namespace mrnn::engine {
namespace {

// Every sequence's inputs [T, N] and its recalled symbols [R, N], R the recalled steps.
struct Sequences {
  torch::Tensor inputs;
  torch::Tensor recalled;
  std::vector<int64_t> steps;
};

Sequences draw(const LongRangeProblem& problem, ProblemSplit split, int64_t count) {
  Sequences out;
  const int64_t T = problem.windowLength();
  out.steps = problem.sequence(split, 0).judged;
  const auto R = static_cast<int64_t>(out.steps.size());
  out.inputs = torch::empty({T, count}, torch::kLong);
  out.recalled = torch::empty({R, count}, torch::kLong);
  auto inputs = out.inputs.accessor<int64_t, 2>();
  auto recalled = out.recalled.accessor<int64_t, 2>();
  for (int64_t n = 0; n < count; ++n) {
    const ProblemSequence s = problem.sequence(split, n);
    for (int64_t t = 0; t < T; ++t) inputs[t][n] = s.inputs[static_cast<size_t>(t)];
    for (int64_t r = 0; r < R; ++r) {
      recalled[r][n] = s.targets[static_cast<size_t>(out.steps[static_cast<size_t>(r)])];
    }
  }
  return out;
}

// The states at the recalled steps with a constant feature: [R, N, H + 1], in double.
torch::Tensor features(LanguageModel& model, const Sequences& s) {
  auto state = model.initialState(s.inputs.size(1));
  const auto h = model.hidden(s.inputs, state).to(torch::kDouble);
  const auto steps = torch::tensor(s.steps, torch::kLong);
  const auto at = h.index_select(0, steps);
  return torch::cat({at, torch::ones({at.size(0), at.size(1), 1}, at.options())}, 2);
}

}  // namespace

UntrainedMemory measureUntrainedMemory(const UntrainedMemoryOptions& o) {
  if (o.problem != SyntheticTask::Memorization5 && o.problem != SyntheticTask::Memorization20) {
    throw std::invalid_argument(
        "what an untrained network keeps is measured on the "
        "memorisation problems only");
  }
  if (o.hidden < 1 || o.fitSequences < 1 || o.testSequences < 1) {
    throw std::invalid_argument("units and sequences must be at least 1");
  }
  ProblemConfig problemConfig;
  problemConfig.length = o.length;
  problemConfig.seed = o.seed;
  const LongRangeProblem problem(o.problem, problemConfig);
  const int64_t vocab = problem.vocabulary().size();

  ModelConfig config;
  config.input.level = InputLevel::Word;
  config.input.embeddingSize = 0;
  LayerConfig layer;
  layer.type = CellType::Rnn;
  layer.hiddenSize = o.hidden;
  config.layers = {layer};
  config.init.seed = o.seed;
  config.init.recurrent = o.orthogonal ? RecurrentInit::Orthogonal : RecurrentInit::Sparse;
  config.init.sparseConnections = 15;
  config.init.recurrentScale = o.recurrentScale;
  config.init.inputScale = o.inputScale;
  torch::NoGradGuard noGradients;
  LanguageModel model(config, vocab);
  model.eval();

  const Sequences fit = draw(problem, ProblemSplit::Train, o.fitSequences);
  const Sequences test = draw(problem, ProblemSplit::Test, o.testSequences);
  const auto x = features(model, fit).reshape({-1, o.hidden + 1});
  const auto y = torch::one_hot(fit.recalled.reshape({-1}), vocab).to(torch::kDouble);
  // Ridge: the smallest of regularisations, there only to keep XᵀX invertible.
  const auto gram = x.t().mm(x) + 1e-3 * torch::eye(o.hidden + 1, x.options());
  const auto readout = torch::linalg_solve(gram, x.t().mm(y), /*left=*/true);

  const auto read = features(model, test).matmul(readout).argmax(2);  // [R, N]
  const auto wrong = read.ne(test.recalled).to(torch::kDouble);
  UntrainedMemory out;
  const auto perStep = wrong.mean(1);
  for (int64_t r = 0; r < perStep.size(0); ++r) out.wrongAt.push_back(perStep[r].item<double>());
  out.sequencesWrong = std::get<0>(wrong.max(0)).mean().item<double>();
  out.readoutNorm = readout.norm().item<double>();
  const double values = o.problem == SyntheticTask::Memorization5 ? 2.0 : 5.0;
  out.chance = 1.0 - 1.0 / values;
  return out;
}

}  // namespace mrnn::engine
