#pragma once

#include <torch/types.h>

#include <vector>

#include "engine/config/training_config.h"
#include "engine/optim/conjugate_gradient.h"
#include "engine/optim/runaway_damping.h"
#include "engine/optim/update_rule.h"

namespace mrnn::engine {

// Hessian-free optimisation (Martens 2010) with structural damping (Martens & Sutskever 2011),
// the way Sutskever, Martens & Hinton (2011) train the mRNN. One update:
//   1. the loss and gradient g on the gradient's share of data;
//   2. CG on the damped quadratic ½ pᵀ(G + λI + μλS)p + gᵀp, G the Gauss-Newton matrix and S
//      structural damping's on the curvature share, from the last step's final iterate times
//      warm_start_decay, preconditioned by (diag(Σ g_seq²) + λ)^power where asked;
//   3. backtracking over CG's kept iterates on the gradient's share;
//   4. ρ on the curvature share against the undamped model gᵀp + ½ pᵀGp, and λ by
//      Levenberg-Marquardt;
//   5. Armijo's line search along p on the gradient's share, then θ += rate·p.
// Its state (λ, CG's warm start, the iteration cap, its counters) is checkpointed under
// "hessian_free", so a resumed run continues exactly. A run whose λ ran away
// (dampingRanAway) is told to end: its result says stalled.
class HessianFreeRule : public UpdateRule {
 public:
  HessianFreeRule(const HessianFreeConfig& config, std::vector<torch::Tensor> parameters);

  UpdateShape shape() const override;
  UpdateResult update(Objective& objective, double learningRate) override;
  bool usesLearningRate() const override { return false; }

  std::string archiveKey() const override { return "hessian_free"; }
  void save(torch::serialize::OutputArchive& archive) const override;
  void load(torch::serialize::InputArchive& archive) override;

  double lambda() const { return lambda_; }
  const torch::Tensor& warmStart() const { return warmStart_; }
  int64_t iterationCap() const { return cgOptions_.maxIterations; }
  int64_t totalCgIterations() const { return totalCgIterations_; }
  const DampingRaises& raises() const { return raises_; }

 private:
  // Sets the parameters to θ + step (θ as the update found them), or back to θ.
  void moveTo(const torch::Tensor& step);
  UpdateResult step(Objective& objective);

  HessianFreeConfig config_;
  std::vector<torch::Tensor> parameters_;
  CgOptions cgOptions_;
  double lambda_;
  torch::Tensor warmStart_;  // CG's final iterate of the last step (flat)
  int64_t steps_ = 0;
  int64_t totalCgIterations_ = 0;
  DampingRaises raises_;               // which recent steps' ρ raised λ (dampingRanAway)
  std::vector<torch::Tensor> origin_;  // θ during an update
};

}  // namespace mrnn::engine
