#pragma once

#include <torch/types.h>

#include <functional>
#include <memory>
#include <vector>

#include "engine/models/language_model.h"
#include "engine/models/window_masks.h"
#include "engine/optim/objective.h"
#include "engine/optim/update_rule.h"
#include "engine/runtime/stop_token.h"
#include "engine/training/collective.h"
#include "engine/training/curvature_windows.h"
#include "engine/training/data_parallel.h"

namespace mrnn::engine {

class GradientBuckets;

// One window of an update, whole: every stream of the batch, on the training device.
struct ObjectiveWindow {
  torch::Tensor inputs;   // [T, B] int64
  torch::Tensor targets;  // [T, B] int64
  torch::Tensor mask;     // [T, B] float 0/1, or undefined: every target counts
  // Starts from the model's initial (zero) state instead of where the window before it ended
  // (a new epoch, or a run that does not carry the state across windows).
  bool freshState = false;
  torch::Tensor values;        // [T, B, F] real inputs (the addition problem), or undefined
  torch::Tensor targetValues;  // [T, B, O] real targets, or undefined
};

struct ObjectiveOptions {
  StreamShard shard;  // this rank's streams of the batch
  UpdateShape shape;  // the curvature share within the windows
  bool bf16 = false;  // the loss and gradient under bf16 autocast (CUDA)
  // Data parallel, one window: its gradient is summed over the ranks in buckets while the
  // backward pass runs. Null: summed after it (or nothing to sum, one process).
  GradientBuckets* buckets = nullptr;
  // Asked between windows: once stopped, the update is abandoned (UpdateInterrupted,
  // engine/optim/objective.h), so that a stop is honoured within one window's time even in a
  // long Hessian-free step. Null: never (ranks end a step together, then agree to stop).
  const StopToken* stop = nullptr;
};

// The objective of one update over the trainer's windows: the mean loss (stepLoss: negative
// log-likelihood, or a linear output's squared error) of their counted targets, over the whole
// batch's streams (each rank holds a share and sums with the others through the collective; one
// process has a LocalCollective). What could change between two evaluations is fixed when the
// objective is made or at its first pass: each window starts from the state the window before it
// ended in at the first pass's weights (the first from `start`), and replays the dropout masks its
// first pass drew.
class WindowObjective : public Objective {
 public:
  WindowObjective(LanguageModel& model, Collective& collective, ModelState start,
                  std::vector<ObjectiveWindow> windows, const ObjectiveOptions& options);
  ~WindowObjective() override;

  const std::vector<torch::Tensor>& parameters() const override { return parameters_; }
  double loss(DataShare share) override;
  double lossAndGradient() override;
  torch::Tensor curvatureProduct(const torch::Tensor& v, double structural) override;
  torch::Tensor squaredGradients() override;

  // The state after the last window at the first pass's weights, detached: where the next
  // update starts.
  ModelState endState();
  // The counted targets of the gradient's share over every rank (the loss's divisor).
  double targetCount() const { return gradientCount_; }

 private:
  struct Local {
    torch::Tensor inputs;
    torch::Tensor targets;
    torch::Tensor mask;
    torch::Tensor values;
    torch::Tensor targetValues;
    bool freshState = false;
    WindowMasks masks;
  };
  // Window w's start state; the first pass computes them in order.
  ModelState startOf(size_t w);
  // One window's masked NLL sum divided by the gradient count, from `state` (updated).
  torch::Tensor windowLoss(size_t w, ModelState& state);
  // Runs every window without a gradient once, when no pass has run yet (fixes the starts).
  void ensureFirstPass();
  // Throws UpdateInterrupted once options_.stop is stopped.
  void poll() const;
  void recordEnd(size_t w, const ModelState& state);
  CurvatureWindows& curvature();
  double sumOverRanks(double value);
  void zeroGradients();

  LanguageModel& model_;
  Collective& collective_;
  std::vector<torch::Tensor> parameters_;
  ObjectiveOptions options_;
  std::vector<Local> windows_;
  std::vector<ModelState> starts_;  // known for [0, starts_.size())
  ModelState end_;
  bool firstPassDone_ = false;
  double gradientCount_ = 1.0;
  double curvatureCount_ = 1.0;
  torch::Tensor curvatureRows_;  // this rank's streams in the curvature share
  std::unique_ptr<CurvatureWindows> curvature_;
};

}  // namespace mrnn::engine
