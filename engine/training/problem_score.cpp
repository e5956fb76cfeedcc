#include "engine/training/problem_score.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/data/problem_batcher.h"
#include "engine/models/eval_mode_guard.h"
#include "engine/models/output_loss.h"
#include "engine/runtime/job_context.h"
#include "engine/training/window_tensor.h"

namespace mrnn::engine {

LossFigures scoreProblem(LanguageModel& model, const LongRangeProblem& problem, ProblemSplit split,
                         int64_t batch, const torch::Device& device, JobContext* job) {
  EvalModeGuard evalMode(model);
  torch::NoGradGuard noGrad;
  const bool symbols = model.config().predictsSymbols();
  const int64_t total = problem.sequences(split);
  batch = std::max<int64_t>(1, std::min(batch, total));
  double lossSum = 0.0;
  double counted = 0.0;
  int64_t wrong = 0;
  std::vector<int64_t> wrongAt;  // by answer step, in order
  for (int64_t first = 0; first < total; first += batch) {
    const int64_t count = std::min(batch, total - first);
    const Window w = ProblemBatcher::window(problem, split, first, count);
    const auto inputs = windowTensor(w.inputs, w.steps, w.batch, device);
    const auto targets = windowTensor(w.targets, w.steps, w.batch, device);
    const auto mask = windowTensor(w.lossMask, w.steps, w.batch, device);
    const auto values = valuesTensor(w.inputValues, w.steps, w.batch, device);
    const auto targetValues = valuesTensor(w.targetValues, w.steps, w.batch, device);
    ModelState state = model.initialState(count);
    const auto outputs = model.forward(inputs, state, nullptr, {nullptr, nullptr, values});
    // Selected, not multiplied by 0: an infinite loss at an unscored step cannot make a NaN.
    const auto loss = stepLoss(outputs, targets, targetValues, symbols);
    lossSum += torch::where(mask > 0.5f, loss, torch::zeros_like(loss)).sum().item<double>();
    counted += mask.sum().item<double>();
    // The judged steps of each sequence, from the sequences themselves.
    const auto host =
        symbols ? outputs.argmax(2).cpu() : outputs.select(2, 0).to(torch::kDouble).cpu();
    for (int64_t b = 0; b < count; ++b) {
      const ProblemSequence s = problem.sequence(split, first + b);
      bool right = true;
      if (wrongAt.size() < s.judged.size()) wrongAt.resize(s.judged.size(), 0);
      for (size_t j = 0; j < s.judged.size(); ++j) {
        const int64_t t = s.judged[j];
        const auto k = static_cast<size_t>(t);
        const bool rightHere = symbols ? host[t][b].item<int64_t>() == s.targets[k]
                                       : std::fabs(host[t][b].item<double>() - s.targetValues[k]) <
                                             LongRangeProblem::kAdditionTolerance;
        if (!rightHere) ++wrongAt[j];
        right = right && rightHere;
      }
      if (!right) ++wrong;
    }
    if (job)
      job->report(static_cast<double>(first + count) / static_cast<double>(total), "scoring");
  }
  LossFigures figures =
      lossFigures(lossSum / std::max(1.0, counted), static_cast<int64_t>(counted), 0);
  figures.errorRate = static_cast<double>(wrong) / static_cast<double>(std::max<int64_t>(1, total));
  figures.sequences = total;
  figures.squaredError = !symbols;
  if (wrongAt.size() > 1) {
    for (const int64_t n : wrongAt) {
      figures.answerErrorRates.push_back(static_cast<double>(n) /
                                         static_cast<double>(std::max<int64_t>(1, total)));
    }
  }
  return figures;
}

}  // namespace mrnn::engine
