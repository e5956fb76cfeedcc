// The `training:` section: a full section parses and round-trips through the writer; every
// kind of bad input gives an error naming the file, the line and the key path.

#include <yaml-cpp/yaml.h>

#include "engine/config/config_error.h"
#include "engine/config/training_config.h"
#include "engine/config/yaml_reader.h"
#include "test_harness.h"

using namespace mrnn;
using engine::ConfigError;
using engine::OptimizerKind;
using engine::ScheduleKind;

namespace {

engine::TrainingConfig parse(const std::string& text) {
  const YAML::Node root = YAML::Load(text);
  engine::YamlReader reader("t.yaml");
  return engine::parseTrainingSection(root["training"], reader);
}

ConfigError errorOf(const std::string& text) {
  try {
    parse(text);
  } catch (const ConfigError& error) {
    return error;
  }
  ::mrnn::test::fail(__FILE__, __LINE__, "no ConfigError for:\n" + text);
}

std::string emit(const engine::TrainingConfig& config) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "training" << YAML::Value;
  engine::emitTrainingSection(out, config);
  out << YAML::EndMap;
  return out.c_str();
}

// Line numbers below count from 1 at "training:".
const std::string kFull =
    "training:\n"                    // 1
    "  batch_size: 64\n"             // 2
    "  bptt: 150\n"                  // 3
    "  random_bptt: true\n"          // 4
    "  predict_last: 50\n"           // 5
    "  clip_norm: 0.25\n"            // 6
    "  epochs: 12\n"                 // 7
    "  max_steps: 100000\n"          // 8
    "  validate_every: 300\n"        // 9
    "  validation_symbols: 50000\n"  // 10
    "  checkpoint_every: 900\n"      // 11
    "  early_stop_patience: 4\n"     // 12
    "  seed: 77\n"                   // 13
    "  device: cuda\n"               // 14
    "  threads: 3\n"                 // 15
    "  bf16: true\n"                 // 16
    "  optimizer:\n"                 // 17
    "    type: adam\n"               // 18
    "    lr: 0.002\n"                // 19
    "    beta1: 0\n"                 // 20
    "    beta2: 0.98\n"              // 21
    "    epsilon: 1.0e-9\n"          // 22
    "    weight_decay: 1.2e-6\n"     // 23
    "  schedule:\n"                  // 24
    "    type: steps\n"              // 25
    "    gamma: 0.3\n"               // 26
    "    milestones: [3, 7, 10]\n";  // 27

void expectError(const std::string& text, int line, const std::string& key,
                 const std::string& fragment) {
  const ConfigError e = errorOf(text);
  EXPECT_MSG(e.line() == line, "line " << e.line() << " for " << e.what());
  EXPECT_MSG(e.key() == key, "key '" << e.key() << "' for " << e.what());
  EXPECT_MSG(std::string(e.what()).find(fragment) != std::string::npos, e.what());
  EXPECT_MSG(std::string(e.what()).find("t.yaml:" + std::to_string(line) + ":") == 0, e.what());
}

}  // namespace

MRNN_TEST(training_full_section_parses) {
  const auto c = parse(kFull);
  EXPECT_EQ(c.batchSize, int64_t{64});
  EXPECT_EQ(c.bptt, int64_t{150});
  EXPECT(c.randomBptt);
  EXPECT_EQ(c.predictLast, int64_t{50});
  EXPECT_EQ(c.clipNorm, 0.25);
  EXPECT_EQ(c.epochs, int64_t{12});
  EXPECT_EQ(c.maxSteps, int64_t{100000});
  EXPECT_EQ(c.validateEvery, int64_t{300});
  EXPECT_EQ(c.validationSymbols, int64_t{50000});
  EXPECT_EQ(c.checkpointEvery, int64_t{900});
  EXPECT_EQ(c.earlyStopPatience, int64_t{4});
  EXPECT_EQ(c.seed, uint64_t{77});
  EXPECT_EQ(c.device, std::string("cuda"));
  EXPECT_EQ(c.threads, 3);
  EXPECT(c.bf16);
  EXPECT(c.optimizer.kind == OptimizerKind::Adam);
  EXPECT_EQ(c.optimizer.learningRate, 0.002);
  EXPECT_EQ(c.optimizer.beta1, 0.0);
  EXPECT_EQ(c.optimizer.beta2, 0.98);
  EXPECT_EQ(c.optimizer.epsilon, 1e-9);
  EXPECT_EQ(c.optimizer.weightDecay, 1.2e-6);
  EXPECT(c.schedule.kind == ScheduleKind::Steps);
  EXPECT_EQ(c.schedule.gamma, 0.3);
  EXPECT(c.schedule.milestones == (std::vector<int64_t>{3, 7, 10}));
}

MRNN_TEST(training_defaults_when_keys_are_absent) {
  const auto c = parse("training: {}\n");
  const engine::TrainingConfig defaults;  // named: GCC 12 misreads a temporary here at -O3
  EXPECT(c == defaults);
  const auto d = parse("training:\n  optimizer: {type: sgd}\n");
  EXPECT(d.optimizer.kind == OptimizerKind::Sgd);
  EXPECT_EQ(d.optimizer.learningRate, engine::OptimizerConfig{}.learningRate);
}

MRNN_TEST(training_round_trips_through_the_writer) {
  const std::vector<std::string> variants{
      kFull,
      "training:\n  optimizer: {type: adamw, lr: 0.001, weight_decay: 0.01}\n"
      "  schedule: {type: linear, floor: 5.0e-5}\n",
      "training:\n  optimizer: {type: rmsprop, lr: 0.01, alpha: 0.9, momentum: 0.5}\n"
      "  schedule: {type: exponential, gamma: 0.97}\n",
      "training:\n  optimizer: {type: sgd, lr: 30, momentum: 0.9}\n"
      "  schedule: {type: plateau, patience: 3, factor: 0.25, floor: 0.1}\n",
      "training:\n  optimizer: {type: rmsprop_normalized, update_length: 0.3,"
      " update_length_decay: 0.9999, alpha: 0.95}\n  schedule: {type: constant}\n",
      "training:\n  optimizer: {type: nt_asgd, lr: 30, weight_decay: 1.2e-6, non_monotone: 5}\n"
      "  schedule: {type: linear, floor: 1}\n",
      // bf16 with the device left to the launch: written back without a device, or it would
      // not load again.
      "training:\n  bf16: true\n",
  };
  for (const auto& text : variants) {
    const auto first = parse(text);
    const std::string written = emit(first);
    const auto second = parse(written);
    EXPECT_MSG(second == first, "round trip changed:\n" << text << "\n->\n" << written);
    EXPECT_MSG(emit(second) == written, written);
  }
}

// The normalised RMSprop has no `lr`: its update length takes the learning rate's place.
MRNN_TEST(training_rmsprop_normalized_rate_is_the_update_length) {
  const auto c = parse(
      "training:\n  optimizer: {type: rmsprop_normalized, update_length: 0.3}\n"
      "  schedule: {type: linear, floor: 0.01}\n");
  EXPECT_EQ(c.optimizer.learningRate, 0.3);
  EXPECT_EQ(c.optimizer.updateLength, 0.3);
  EXPECT_EQ(c.optimizer.updateLengthDecay, 1.0);
  EXPECT_EQ(engine::baseLearningRate(c.optimizer), 0.3);
  engine::OptimizerConfig inCode;
  inCode.kind = OptimizerKind::RmspropNormalized;
  inCode.updateLength = 0.25;
  EXPECT_EQ(engine::baseLearningRate(inCode), 0.25);
  inCode.kind = OptimizerKind::Sgd;
  EXPECT_EQ(engine::baseLearningRate(inCode), inCode.learningRate);
  expectError("training:\n  optimizer:\n    type: rmsprop_normalized\n    lr: 0.1\n", 4,
              "training.optimizer.lr", "does not apply to optimizer type 'rmsprop_normalized'");
}

MRNN_TEST(training_unknown_keys_are_located) {
  expectError("training:\n  bptt: 100\n  batch_sise: 3\n", 3, "training.batch_sise", "unknown key");
  expectError("training:\n  optimizer:\n    type: adam\n    learning_rate: 0.1\n", 4,
              "training.optimizer.learning_rate", "unknown optimizer key");
  expectError("training:\n  schedule:\n    type: linear\n    flor: 0.1\n", 4,
              "training.schedule.flor", "unknown schedule key");
  expectError("training:\n  optimizer:\n    type: adagrad\n", 3, "training.optimizer.type",
              "'adagrad' is not allowed");
}

MRNN_TEST(training_keys_of_another_type_are_rejected) {
  expectError("training:\n  optimizer:\n    type: sgd\n    lr: 0.1\n    beta1: 0.9\n", 5,
              "training.optimizer.beta1", "does not apply to optimizer type 'sgd'");
  expectError("training:\n  optimizer:\n    type: adam\n    momentum: 0.9\n", 4,
              "training.optimizer.momentum", "does not apply to optimizer type 'adam'");
  expectError("training:\n  optimizer:\n    non_monotone: 5\n", 3,
              "training.optimizer.non_monotone", "does not apply to optimizer type 'adam'");
  expectError("training:\n  schedule:\n    type: linear\n    milestones: [1, 2]\n", 4,
              "training.schedule.milestones", "does not apply to schedule type 'linear'");
  expectError("training:\n  schedule:\n    type: constant\n    gamma: 0.5\n", 4,
              "training.schedule.gamma", "does not apply to schedule type 'constant'");
}

MRNN_TEST(training_values_out_of_range_are_located) {
  expectError("training:\n  batch_size: 0\n", 2, "training.batch_size", "out of range");
  expectError("training:\n  bptt: 1\n", 2, "training.bptt", "out of range");
  expectError("training:\n  clip_norm: -1\n", 2, "training.clip_norm", "out of range");
  expectError("training:\n  device: tpu\n", 2, "training.device", "not 'tpu'");
  expectError("training:\n  epochs: many\n", 2, "training.epochs", "expected an integer");
  expectError("training:\n  bptt: 20\n  predict_last: 21\n", 3, "training.predict_last",
              "must not exceed bptt");
  expectError("training:\n  optimizer:\n    lr: 0\n", 3, "training.optimizer.lr",
              "must be above 0");
  expectError("training:\n  optimizer:\n    beta1: 1\n", 3, "training.optimizer.beta1",
              "out of range");
  expectError("training:\n  optimizer:\n    beta2: -0.1\n", 3, "training.optimizer.beta2",
              "out of range");
  expectError("training:\n  optimizer:\n    type: sgd\n    momentum: 1.5\n", 4,
              "training.optimizer.momentum", "out of range");
  expectError("training:\n  optimizer:\n    type: nt_asgd\n    non_monotone: 0\n", 4,
              "training.optimizer.non_monotone", "out of range");
  expectError(
      "training:\n  optimizer:\n    type: rmsprop_normalized\n"
      "    update_length_decay: 0\n",
      4, "training.optimizer.update_length_decay", "must be above 0");
  expectError("training:\n  schedule:\n    type: plateau\n    factor: 1\n", 4,
              "training.schedule.factor", "out of range");
}

// A file that names a CPU for bf16 contradicts itself; one that names no device leaves it to
// the launch (--device cuda, the training panel), where the trainer refuses a CPU.
MRNN_TEST(training_bf16_needs_cuda) {
  expectError("training:\n  device: cpu\n  bf16: true\n", 3, "training.bf16", "device: cuda");
  EXPECT(parse("training:\n  device: cuda\n  bf16: true\n").bf16);
  const auto open = parse("training:\n  bf16: true\n");
  EXPECT(open.bf16);
  EXPECT_EQ(open.device, std::string("cpu"));
}

MRNN_TEST(training_linear_floor_must_be_below_the_rate) {
  expectError(
      "training:\n  optimizer: {lr: 0.001}\n  schedule:\n    type: linear\n"
      "    floor: 0.001\n",
      5, "training.schedule.floor", "must be below the optimizer's learning rate");
  EXPECT_EQ(parse("training:\n  schedule: {type: linear, floor: 0.0001}\n").schedule.floor, 0.0001);
}

MRNN_TEST(training_bad_milestones_are_located) {
  const std::string head = "training:\n  schedule:\n    type: steps\n";
  expectError(head + "    milestones: [5, 3]\n", 4, "training.schedule.milestones[1]",
              "milestones must increase");
  expectError(head + "    milestones:\n      - 2\n      - 2\n", 6,
              "training.schedule.milestones[1]", "must increase");
  expectError(head + "    milestones: [0, 3]\n", 4, "training.schedule.milestones[0]",
              "count from 1");
  expectError(head + "    milestones: [2, x]\n", 4, "training.schedule.milestones[1]",
              "expected an epoch number");
  expectError(head + "    milestones: []\n", 4, "training.schedule.milestones", "non-empty");
  expectError(head + "    milestones: 3\n", 4, "training.schedule.milestones", "non-empty");
  expectError(head + "    gamma: 0.5\n", 3, "training.schedule.milestones", "missing");
}

// Hessian-free: its keys, their defaults (the paper's where it speaks, Martens' code where it
// does not), a round trip, and the settings that contradict each other, located.
MRNN_TEST(training_hessian_free_keys_parse_and_round_trip) {
  const auto defaults = parse("training:\n  optimizer: {type: hessian_free}\n");
  EXPECT(defaults.optimizer.kind == OptimizerKind::HessianFree);
  const engine::HessianFreeConfig& d = defaults.optimizer.hessianFree;
  EXPECT_EQ(d.initialLambda, 10.0);
  EXPECT_EQ(d.structuralDamping, 0.1);
  EXPECT_EQ(d.cgMaxIterations, int64_t{150});
  EXPECT_EQ(d.cgMinIterations, int64_t{1});
  EXPECT_EQ(d.warmStartDecay, 0.95);
  EXPECT(d.preconditioner == engine::Preconditioner::Diagonal);
  EXPECT_EQ(d.preconditionerPower, 0.75);
  EXPECT(d.backtracking && d.lineSearch);

  const std::string full =
      "training:\n  batch_size: 30\n  carry_state: false\n"
      "  optimizer: {type: hessian_free, lambda: 3, structural_damping: 0.03,"
      " cg_max_iterations: 250, cg_min_iterations: 20, gradient_windows: 8,"
      " curvature_windows: 2, curvature_sequences: 10, preconditioner: none,"
      " preconditioner_power: 1, warm_start_decay: 0.9, backtracking: false,"
      " line_search: false}\n";
  const auto first = parse(full);
  const engine::HessianFreeConfig& h = first.optimizer.hessianFree;
  EXPECT(!first.carryState);
  EXPECT_EQ(h.initialLambda, 3.0);
  EXPECT_EQ(h.curvatureSequences, int64_t{10});
  EXPECT(h.preconditioner == engine::Preconditioner::None);
  EXPECT(!h.backtracking && !h.lineSearch);
  const std::string written = emit(first);
  EXPECT_MSG(parse(written) == first, written);
  EXPECT_MSG(written.find("lr:") == std::string::npos, written);  // HF has no learning rate
}

MRNN_TEST(training_hessian_free_contradictions_are_located) {
  expectError("training:\n  optimizer:\n    type: hessian_free\n    lr: 0.1\n", 4,
              "training.optimizer.lr", "does not apply to optimizer type 'hessian_free'");
  expectError("training:\n  optimizer:\n    type: adam\n    lambda: 1\n", 4,
              "training.optimizer.lambda", "does not apply to optimizer type 'adam'");
  expectError(
      "training:\n  optimizer:\n    type: hessian_free\n    gradient_windows: 2\n"
      "    curvature_windows: 3\n",
      5, "training.optimizer.curvature_windows", "must not exceed gradient_windows (2)");
  expectError(
      "training:\n  optimizer:\n    type: hessian_free\n    cg_max_iterations: 10\n"
      "    cg_min_iterations: 11\n",
      5, "training.optimizer.cg_min_iterations", "must not exceed cg_max_iterations (10)");
  expectError(
      "training:\n  batch_size: 32\n  optimizer:\n    type: hessian_free\n"
      "    curvature_sequences: 12\n",
      5, "training.optimizer.curvature_sequences", "does not divide batch_size (32)");
  expectError(
      "training:\n  optimizer: {type: hessian_free}\n  schedule:\n    type: linear\n"
      "    floor: 0.0001\n",
      4, "training.schedule.type", "Hessian-free has no learning rate");
  expectError("training:\n  optimizer:\n    type: hessian_free\n    preconditioner: jacobi\n", 4,
              "training.optimizer.preconditioner", "'jacobi' is not allowed");
  expectError("training:\n  optimizer:\n    type: hessian_free\n    lambda: 0\n", 4,
              "training.optimizer.lambda", "must be above 0");
}
