#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace YAML {
class Node;
class Emitter;
}  // namespace YAML

namespace mrnn::engine {

class YamlReader;

// A run's length limits, checked alike in the project file and on the command line.
constexpr int64_t kMaxRunSteps = int64_t{1} << 40;  // training.max_steps, --max-steps
constexpr int64_t kMaxRunEpochs = 1'000'000;        // training.epochs, --epochs
constexpr int64_t kMaxRunSeconds = 1'000'000'000;   // training.max_seconds, --max-seconds

enum class OptimizerKind { Adam, AdamW, Rmsprop, Sgd, RmspropNormalized, NtAsgd, HessianFree };
enum class Preconditioner { None, Diagonal };

// What one Hessian-free step may ask for: a step holds its windows and reads them many times
// (the gradient, CG's curvature products, backtracking), so these bound its memory and time
// on a workstation; the papers' settings are far inside them.
inline constexpr int64_t kMaxCgIterations = 1000;
inline constexpr int64_t kMaxStepWindows = 1024;
inline constexpr int64_t kMaxStepSymbols = int64_t{1} << 24;

// Hessian-free optimisation (Martens 2010) with structural damping (Martens & Sutskever 2011),
// as Sutskever et al. 2011 train the mRNN. Defaults follow that paper where it speaks (§5.2)
// and Martens' code where it does not; docs/training.md gives each key's source.
struct HessianFreeConfig {
  double initialLambda = 10.0;  // λ's start (§5.2); then Levenberg-Marquardt's rule
  // λ's floor; 0: none, as Martens' code. Without one λ can fall by 2/3 a step for hundreds of
  // steps (to 1e-83 on 5-bit memorisation), taking the structural damping μλ with it.
  double minLambda = 0.0;
  double structuralDamping = 0.1;  // μ (§5.2): structural damping weighs μλ
  int64_t cgMaxIterations = 150;   // CG iterations per step at most (§5.2)
  int64_t cgMinIterations = 1;     // before CG's progress test may stop it (Martens)
  int64_t gradientWindows = 10;    // windows of batch_size sequences for the gradient
  int64_t curvatureWindows = 1;    // the first of them for the curvature products
  int64_t curvatureSequences = 0;  // of those windows' streams, this many; 0: all
  Preconditioner preconditioner = Preconditioner::Diagonal;  // (diag(Σ g²) + λ)^power (Martens)
  double preconditionerPower = 0.75;
  double warmStartDecay = 0.95;  // CG starts from the last step's final iterate times this
  bool backtracking = true;      // keep the best of CG's stored iterates (Martens)
  bool lineSearch = true;        // Armijo's backtracking line search on the step (Martens)
};
enum class ScheduleKind { Constant, Linear, Exponential, Steps, Plateau };

struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::Adam;
  double learningRate = 1e-3;
  double beta1 = 0.9;  // Adam/AdamW; Melis uses 0
  double beta2 = 0.999;
  double epsilon = 1e-8;
  double weightDecay = 0.0;  // L2 penalty (AdamW: decoupled decay)
  double momentum = 0.0;     // SGD, RMSprop
  double alpha = 0.99;       // RMSprop's squared-gradient decay
  // RMSprop with normalised updates (Krause eq. 22): every update has length `updateLength`,
  // decayed by `updateLengthDecay` per step (exponential). The update length takes the place
  // of the learning rate: YAML `lr` does not apply to this type, and the parser sets
  // `learningRate = updateLength` so that a schedule built on learningRate scales the length.
  double updateLength = 0.1;
  double updateLengthDecay = 1.0;
  // NT-ASGD (Merity et al.): SGD, switching to averaging when validation has not improved on
  // the best of the last `nonMonotone` checks.
  int64_t nonMonotone = 5;
  HessianFreeConfig hessianFree;  // type hessian_free
};

struct ScheduleConfig {
  ScheduleKind kind = ScheduleKind::Constant;
  double floor = 0.0;               // Linear: decays to this learning rate (Krause: 5e-5..1e-4)
                                    // Plateau: never decays below it
  double gamma = 0.5;               // Exponential (per epoch) and Steps factor
  std::vector<int64_t> milestones;  // Steps: epochs at which lr *= gamma
  int64_t patience = 2;             // Plateau: validations without improvement
  double factor = 0.5;              // Plateau: lr *= factor
};

// The `training:` section of a project.
struct TrainingConfig {
  OptimizerConfig optimizer;
  ScheduleConfig schedule;
  int64_t batchSize = 32;
  int64_t bptt = 100;
  bool randomBptt = false;  // AWD-LSTM random-length windows
  int64_t predictLast = 0;  // > 0: only the last k symbols of each window count (Sutskever §5.2)
  // false: every window starts from the initial state, as separate sequences (Sutskever §5.2:
  // sequences of 250, the first 50 unscored with predict_last: 200; the long-range problems)
  bool carryState = true;
  double clipNorm = 1.0;  // gradient-norm clipping; 0 = none
  int64_t epochs = 1;     // stop after this many epochs ...
  int64_t maxSteps = 0;   // ... or this many steps, when > 0
  // > 0: the run also ends (finished: validated and tested) once its training time reaches
  // this many seconds; a budget that compares optimisers fairly (one Hessian-free step takes
  // as long as hundreds of Adam's)
  double maxSeconds = 0.0;
  int64_t validateEvery = 200;    // steps between validations (and at every epoch end)
  int64_t validationSymbols = 0;  // > 0: validate on the first N symbols only (quick checks)
  int64_t checkpointEvery = 500;  // steps between checkpoints
  int64_t earlyStopPatience = 0;  // > 0: stop after N validations without improvement
  // A long-range problem's run ends (validated and tested) at the first validation that shows
  // it solved beyond luck (validationShowsSolved): the time to solve is the run's time, and a
  // budget is not spent past it.
  bool stopWhenSolved = false;
  uint64_t seed = 1;
  std::string device = "cpu";  // "cpu", "cuda" or "cuda:N" (device_name.h)
  int threads = 0;             // CPU threads; 0 = all cores
  bool bf16 = false;           // bf16 autocast (CUDA only)
};

TrainingConfig parseTrainingSection(const YAML::Node& node, YamlReader& reader,
                                    const std::string& path = "training");
void emitTrainingSection(YAML::Emitter& out, const TrainingConfig& config);
std::string optimizerKindName(OptimizerKind kind);
// The keys a type reads under training.optimizer ("type" first): the parser refuses the
// others, the writer writes these alone, the workbench shows these.
std::vector<std::string> optimizerKeysFor(OptimizerKind kind);
// Every optimiser type, in the order the parser lists them.
const std::vector<OptimizerKind>& optimizerKinds();
std::string preconditionerName(Preconditioner preconditioner);  // "none", "diagonal"
std::string scheduleKindName(ScheduleKind kind);

// The rate a schedule starts from: the update length for rmsprop_normalized (its learning
// rate), learningRate for the others. Equal to learningRate for every parsed config; this
// also holds for configs built in code.
double baseLearningRate(const OptimizerConfig& config);
// False for Hessian-free, whose step is set by its damping λ and CG, not by a learning rate.
bool hasLearningRate(const OptimizerConfig& config);

// Field-by-field equality (round-trip checks, "has the config changed" on resume).
bool operator==(const HessianFreeConfig& a, const HessianFreeConfig& b);
bool operator==(const OptimizerConfig& a, const OptimizerConfig& b);
bool operator==(const ScheduleConfig& a, const ScheduleConfig& b);
bool operator==(const TrainingConfig& a, const TrainingConfig& b);

}  // namespace mrnn::engine
