#include "engine/training/training_data.h"

#include <stdexcept>

#include "engine/data/problem_batcher.h"
#include "engine/data/stream_batcher.h"
#include "engine/store/text_format.h"
#include "engine/training/problem_score.h"
#include "engine/training/training_preflight.h"

namespace mrnn::engine {

TrainingData::TrainingData(const Project& project,
                           const std::function<void(const std::string&)>& log,
                           const StopCheck& stop) {
  if (isLongRangeProblem(project.data.synthetic)) {
    try {
      problem_ = std::make_unique<LongRangeProblem>(project.data.synthetic, project.data.problem);
    } catch (const std::invalid_argument& error) {
      throw DataError(error.what());  // it names its key
    }
    vocabulary_ = problem_->vocabulary();
    return;
  }
  corpus_ = loadCorpus(project.data, project.model.input.level, project.folder, stop);
  checkHeldOutSplits(corpus_, project.data, log);
  vocabulary_ = corpus_.vocabulary;
}

std::string TrainingData::describe() const {
  if (problem_) {
    return syntheticTaskName(problem_->task()) + " sequences of length " +
           std::to_string(problem_->config().length);
  }
  return groupedInteger(corpus_.train.tokens.size()) + " symbols";
}

std::unique_ptr<WindowSource> TrainingData::windows(const TrainingConfig& training) const {
  if (problem_) return std::make_unique<ProblemBatcher>(*problem_, training.batchSize);
  BatcherOptions batching;
  batching.batch = training.batchSize;
  batching.bptt = training.bptt;
  batching.randomLength = training.randomBptt;
  batching.predictLast = training.predictLast;
  batching.seed = training.seed;
  // The batcher refuses this too, in its own terms; here it is named by the split and the key.
  const int64_t symbols = static_cast<int64_t>(corpus_.train.tokens.size());
  if (symbols <= training.batchSize) {
    throw std::invalid_argument(
        "the training split's " + groupedInteger(symbols) + " symbols are too few for a batch of " +
        groupedInteger(training.batchSize) +
        " rows (training.batch_size): each row needs at least one symbol and its next");
  }
  // The target mask (the reverse copy task's reversed half) reaches the loss as window.lossMask.
  return std::make_unique<StreamBatcher>(corpus_.train.tokens, batching, corpus_.train.targetMask);
}

LossFigures TrainingData::evaluate(HeldOut split, LanguageModel& model, const EvalOptions& options,
                                   JobContext* job) const {
  if (problem_) {
    return scoreProblem(model, *problem_,
                        split == HeldOut::Valid ? ProblemSplit::Valid : ProblemSplit::Test,
                        options.batch, options.device, job);
  }
  return evaluateStatic(model, split == HeldOut::Valid ? corpus_.valid : corpus_.test, options,
                        job);
}

}  // namespace mrnn::engine
