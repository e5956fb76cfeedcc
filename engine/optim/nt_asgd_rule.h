#pragma once

#include "engine/optim/first_order_rule.h"
#include "engine/optim/nt_asgd.h"

namespace mrnn::engine {

// NT-ASGD as an update rule: SGD steps like any first-order rule, and besides them the two
// things only it does, where the training loop can ask for them without knowing which rule
// it holds: it hears every validation loss (its averaging trigger), and evaluation and the
// best checkpoint use its averaged weights once it averages.
class NtAsgdRule : public FirstOrderRule {
 public:
  NtAsgdRule(std::unique_ptr<NtAsgd> optimizer, double clipNorm);

  void afterValidation(double loss) override { asgd_.notifyValidation(loss); }
  bool swapEvaluationWeights() override { return asgd_.swapAveragedWeights(); }

 private:
  NtAsgd& asgd_;  // the optimiser the base class owns
};

}  // namespace mrnn::engine
