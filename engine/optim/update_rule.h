#pragma once

#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/optim/objective.h"
#include "engine/store/metric_names.h"

namespace mrnn::engine {

// A figure an update rule reports for one update besides the loss: Hessian-free's CG
// iterations, λ, ρ. The name is the metric's (engine/store/metric_names.h).
using UpdateFigure = NamedFigure;

struct UpdateResult {
  double loss = 0.0;          // the objective's loss before the update
  double gradientNorm = 0.0;  // of that loss, before clipping
  bool applied = false;       // false: loss or gradient not finite, weights untouched
  // After an applied update: false when it left a weight NaN or infinite. The caller must not
  // save such weights.
  bool weightsFinite = true;
  // The rule can no longer lower the loss (Hessian-free's λ ran away): the run should end.
  bool stalled = false;
  std::vector<UpdateFigure> figures;
};

// How much data one update reads, in the trainer's windows (each batch_size streams of bptt
// symbols): the gradient's share, and the curvature's within it (its first windows, and of
// those every streams-th... see curvatureSequences). First-order rules read one window.
struct UpdateShape {
  int64_t gradientWindows = 1;
  int64_t curvatureWindows = 0;    // 0: no curvature products
  int64_t curvatureSequences = 0;  // of each curvature window's streams; 0: all of them
};

// One way of turning an objective into a parameter update: a first-order optimiser's step
// (FirstOrderRule) or a Hessian-free step (HessianFreeRule). The training loop asks the rule
// for its data's shape, builds the objective over that data and hands it over; it knows
// nothing else of the rule. A rule's state (moments, λ, CG's warm start) goes into the
// checkpoint under archiveKey().
class UpdateRule {
 public:
  virtual ~UpdateRule() = default;

  virtual UpdateShape shape() const { return {}; }
  // `learningRate`: the schedule's rate for this update (rules without one ignore it).
  virtual UpdateResult update(Objective& objective, double learningRate) = 0;
  // Whether the rule follows a learning rate (and its schedule).
  virtual bool usesLearningRate() const { return true; }

  // The checkpoint entry the state is kept under.
  virtual std::string archiveKey() const = 0;
  virtual void save(torch::serialize::OutputArchive& archive) const = 0;
  virtual void load(torch::serialize::InputArchive& archive) = 0;

  // A validation's loss (nats), after it: NT-ASGD decides here whether to start averaging.
  virtual void afterValidation(double /*loss*/) {}
  // Swaps the weights evaluation should use (NT-ASGD's average) into the parameters, or back
  // on the second call. False, doing nothing, where there are none.
  virtual bool swapEvaluationWeights() { return false; }
};

}  // namespace mrnn::engine
