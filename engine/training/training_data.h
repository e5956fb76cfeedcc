#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/config/project_file.h"
#include "engine/data/corpus.h"
#include "engine/data/long_range_problem.h"
#include "engine/data/window_source.h"
#include "engine/training/evaluator.h"

namespace mrnn::engine {

class JobContext;

// What a run trains on and is measured by: a corpus (files, or the reverse copy task) read as
// streams, or one of the long-range problems' generated sequences, each read alone. The
// trainer asks it for its vocabulary, its training windows and its held-out figures, and
// need not know which it holds.
class TrainingData {
 public:
  enum class HeldOut { Valid, Test };

  // Reads the corpus (the held-out splits checked, notes to `log`) or sets the problem up.
  // Throws DataError or std::runtime_error naming what is wrong, ReadingStopped once `stop`
  // says so while a corpus is read.
  TrainingData(const Project& project, const std::function<void(const std::string&)>& log,
               const StopCheck& stop = {});

  const Vocabulary& vocabulary() const { return vocabulary_; }
  // "2,158,117 symbols" or "temporal_order_2bit sequences of length 100", for the log.
  std::string describe() const;
  // The training windows for `training`'s batch and window length.
  std::unique_ptr<WindowSource> windows(const TrainingConfig& training) const;
  // A held-out split's figures: a corpus's as evaluateStatic reads them; a problem's as
  // scoreProblem does (its error rate beside the loss; every rank scores it whole).
  LossFigures evaluate(HeldOut split, LanguageModel& model, const EvalOptions& options,
                       JobContext* job) const;

 private:
  Corpus corpus_;
  std::unique_ptr<LongRangeProblem> problem_;
  Vocabulary vocabulary_;
};

}  // namespace mrnn::engine
