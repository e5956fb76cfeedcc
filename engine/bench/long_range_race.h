#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/config/data_config.h"

namespace mrnn::engine {

// What a problem's race trains with unless told otherwise: the settings each problem was
// measured to need (docs/performance.md, "Long-range problems").
struct RaceRecipe {
  int64_t hidden = 64;
  // The recurrent weights: sparse, or scaled orthogonal (every eigenvalue's modulus the scale).
  bool orthogonal = false;
  // The sparse recurrent weights' spectral radius, or the orthogonal ones' scale.
  double recurrentScale = 1.0;
  double inputScale = 1.0;       // the input weights' bound, times 1/√inputs
  int64_t batch = 100;           // sequences a window
  int64_t gradientWindows = 5;   // Hessian-free: windows of `batch` sequences for the gradient
  int64_t curvatureWindows = 1;  // ... and for the curvature products
  int64_t cgMaxIterations = 100;
  double minLambda = 0.05;  // Hessian-free's λ floor (0: none)
  // Structural damping's μ: the weight, times λ, of the change in the hidden states a step
  // makes (Martens & Sutskever's 1/30).
  double structuralDamping = 0.03;
};

// A problem's recipe:
// - λ's floor: 0.05 where the answer is a symbol, none for addition and multiplication.
//   Without it λ fell to 0.012 on the 3-bit temporal order problem at T = 100 and the next
//   steps diverged; with it that problem and XOR were solved and the 2-bit one as fast. The
//   real-valued problems' squared errors are 25 to 100 times smaller than a symbol's
//   cross-entropy, and so is the curvature λ is weighed against: there the floor held
//   multiplication at chance ("A floor under λ").
// - the radius: 1.2 for random permutation and memorisation, 1.0 for the others. From
//   1.2 no run left chance on the 2-bit temporal order problem at T = 100 where from 1.0 or 1.1
//   Hessian-free solved it in 35 steps. The two problems that must carry what they read first
//   to the end need 1.2: from 1.0 the untrained network's states after the 5-bit patterns'
//   89 blanks are the same to four decimals, and runs from there stalled where patterns
//   shared a state (random permutation near chance for 30 minutes, 5-bit memorisation solved
//   in 2 runs of 9); from 1.2 they stay apart, and both were solved in every run, the 5-bit
//   problem in 7 to 436 s ("The spectral radius by problem", "5-bit memorisation").
// - 5-bit memorisation: the 100 units of Martens & Sutskever, and its 32 patterns as the batch
//   of both the gradient and the curvature (Sutskever's release: exact figures a step, CG up to
//   300 for the price of 100 over the usual windows). With 64 units from radius 1.0 five runs
//   stopped at 19 to 31% wrong ("5-bit memorisation").
// - 20-bit memorisation: 200 units from orthogonal weights of scale 1.1 with inputs scaled by
//   0.3, 1,000 sequences for the gradient and 300 for the curvature (Sutskever's release: 300
//   to 1,000 a batch), CG up to 300 and λ at least 0.005 (0.05 in the units of its ten answers
//   among 100 scored steps: with the larger windows λ sat on 0.05 with ρ near 1). From sparse
//   weights of radius 1.2 the untrained network keeps little of the ten symbols and no run of
//   ten was solved in 30 minutes; near-linear units on orthogonal weights keep them, and 200
//   of them keep nearly all (a linear readout reads 91 to 100% of each, against 73 to 100%
//   with 100, where one run of three was solved): "20-bit memorisation: what the untrained
//   network keeps" and "twice the units" in docs/performance.md.
// - μ, structural damping: 0.03 for every problem. Ten times that made 5-bit memorisation
//   worse in both runs tried.
RaceRecipe raceRecipe(SyntheticTask problem);

// Hessian-free against Adam on one long-range problem, given the same training time: the
// evidence Hessian-free exists for (Martens & Sutskever 2011). Both train the same tanh RNN
// from the same sparse initial weights on the same fresh sequences. With a budget, each side
// trains for at most that many seconds; without one, Hessian-free runs `hessianFreeSteps`
// steps and Adam then trains for as long as those took (training.max_seconds). Both validate
// as they go and stop at the first validation that solves the problem (stop_when_solved);
// each run ends with its test error rate, and a problem is solved below 1% of it.
struct RaceOptions {
  SyntheticTask problem = SyntheticTask::TemporalOrder2;
  int64_t length = 60;  // T
  // Each unset: the problem's own (raceRecipe).
  std::optional<int64_t> hidden;
  std::optional<bool> orthogonal;
  std::optional<double> recurrentScale;
  std::optional<double> inputScale;
  std::optional<int64_t> batch;
  std::optional<int64_t> gradientWindows;
  std::optional<int64_t> curvatureWindows;
  std::optional<int64_t> cgMaxIterations;
  std::optional<double> minLambda;
  std::optional<double> structuralDamping;
  int64_t hessianFreeSteps = 60;  // 0: no step limit (a budget is then needed)
  double budgetSeconds = 0.0;     // > 0: each side's training time at most
  double adamRate = 0.003;
  // false: Hessian-free only (Adam's result stays empty); for budgets where Adam's side was
  // measured separately.
  bool raceAdam = true;
  uint64_t seed = 1;
  int threads = 0;  // 0: every free core, following the load
};

// The settings a race trains with: its problem's recipe, with what the options set instead.
RaceRecipe raceSettings(const RaceOptions& options);

// "100 units from radius 1.0; windows of 32: 1 for the gradient, 1 for the curvature; CG up to
// 300; λ at least 0.05; μ 0.03": what a race's lines were made with, for its report.
std::string raceSettingsText(const RaceRecipe& settings);

struct RaceResult {
  int64_t steps = 0;
  int64_t cgIterations = 0;  // Hessian-free: CG iterations over all its steps
  // Training time (validation and test excluded); for a solved run, the time to solve: it
  // ends at the validation that solved it.
  double seconds = 0.0;
  double testErrorRate = -1.0;
  bool solved = false;
  bool stalled = false;  // ended early: Hessian-free's λ ran away (RunEnd::Stalled)
  std::string failure;   // the run's reason, when it failed
};

struct LongRange {
  RaceResult hessianFree;
  RaceResult adam;
};

// Throws ConfigError (the key and value at fault) when either side's project would be refused:
// checked for every race before the first runs.
void checkRace(const RaceOptions& options);

// Runs the race in `folder` (created; its runs database and checkpoints stay there). Throws
// std::runtime_error naming what could not run.
LongRange raceOnProblem(const RaceOptions& options, const std::string& folder);

// The project text each side trains ("hessian_free" or "adam"): what the race runs, for a
// researcher to run by hand with `mrnn train`.
std::string raceProjectYaml(const RaceOptions& options, bool hessianFree);

}  // namespace mrnn::engine
