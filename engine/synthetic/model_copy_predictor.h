#pragma once

#include <cstdint>

#include "engine/models/eval_mode_guard.h"
#include "engine/models/language_model.h"
#include "engine/synthetic/copy_predictor.h"

namespace mrnn::engine {

// A language model as a CopyPredictor: its recurrent state carries across read() calls, as it
// did across training windows. The model stays in eval mode without gradients while this
// object lives. Inputs go to the model's device; the log-probabilities stay there.
class ModelCopyPredictor : public CopyPredictor {
 public:
  explicit ModelCopyPredictor(LanguageModel& model);

  int64_t vocab() const override;
  void reset(int64_t batch) override;
  torch::Tensor read(const torch::Tensor& inputs) override;

 private:
  LanguageModel& model_;
  EvalModeGuard guard_;
  ModelState state_;
};

}  // namespace mrnn::engine
