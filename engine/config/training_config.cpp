#include "engine/config/training_config.h"

#include "engine/config/device_name.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "engine/config/yaml_reader.h"

namespace mrnn::engine {
namespace {

constexpr int64_t kMaxCount = int64_t{1} << 40;
constexpr double kMaxRate = 1000.0;  // AWD-LSTM's SGD runs at lr 30; anything near 1000 is a typo

const std::vector<OptimizerKind> kOptimizerKinds{OptimizerKind::Adam,
                                                 OptimizerKind::AdamW,
                                                 OptimizerKind::Rmsprop,
                                                 OptimizerKind::Sgd,
                                                 OptimizerKind::RmspropNormalized,
                                                 OptimizerKind::NtAsgd,
                                                 OptimizerKind::HessianFree};
const std::vector<ScheduleKind> kScheduleKinds{ScheduleKind::Constant, ScheduleKind::Linear,
                                               ScheduleKind::Exponential, ScheduleKind::Steps,
                                               ScheduleKind::Plateau};

}  // namespace

// The keys each optimiser reads. A key another optimiser reads is rejected as "does not
// apply", so that a setting that would be silently ignored never passes.
std::vector<std::string> optimizerKeysFor(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
      return {"type", "lr", "beta1", "beta2", "epsilon", "weight_decay"};
    case OptimizerKind::Rmsprop:
      return {"type", "lr", "alpha", "epsilon", "momentum", "weight_decay"};
    case OptimizerKind::Sgd:
      return {"type", "lr", "momentum", "weight_decay"};
    case OptimizerKind::RmspropNormalized:
      // No `lr`: the update length takes its place (Krause et al. eq. 22).
      return {"type", "update_length", "update_length_decay", "alpha", "epsilon", "weight_decay"};
    case OptimizerKind::NtAsgd:
      return {"type", "lr", "weight_decay", "non_monotone"};
    case OptimizerKind::HessianFree:
      // No `lr`: the step's length is CG's solution times the line search's rate.
      return {"type",
              "lambda",
              "min_lambda",
              "structural_damping",
              "cg_max_iterations",
              "cg_min_iterations",
              "gradient_windows",
              "curvature_windows",
              "curvature_sequences",
              "preconditioner",
              "preconditioner_power",
              "warm_start_decay",
              "backtracking",
              "line_search"};
  }
  return {"type"};
}

const std::vector<OptimizerKind>& optimizerKinds() {
  return kOptimizerKinds;
}

namespace {

std::vector<std::string> scheduleKeysFor(ScheduleKind kind) {
  switch (kind) {
    case ScheduleKind::Constant:
      return {"type"};
    case ScheduleKind::Linear:
      return {"type", "floor"};
    case ScheduleKind::Exponential:
      return {"type", "gamma"};
    case ScheduleKind::Steps:
      return {"type", "gamma", "milestones"};
    case ScheduleKind::Plateau:
      return {"type", "patience", "factor", "floor"};
  }
  return {"type"};
}

template <typename Kind>
std::vector<std::string> namesOf(const std::vector<Kind>& kinds, std::string (*name)(Kind)) {
  std::vector<std::string> names;
  for (Kind kind : kinds) names.push_back(name(kind));
  return names;
}

// The fewest significant digits that read back as the same double: 0.1 stays "0.1" rather
// than yaml-cpp's default 17 digits, and nothing is lost.
int shortestDigits(double value) {
  // At least the integer part's digits, so that 20 is written "20", not "2e+01".
  int first = 1;
  for (double magnitude = std::fabs(value); magnitude >= 10 && first < 15; magnitude /= 10) {
    ++first;
  }
  for (int digits = first; digits < 17; ++digits) {
    std::ostringstream out;
    out.precision(digits);
    out << value;
    if (std::strtod(out.str().c_str(), nullptr) == value) return digits;
  }
  return 17;
}

bool contains(const std::vector<std::string>& keys, const std::string& name) {
  for (const auto& key : keys) {
    if (key == name) return true;
  }
  return false;
}

std::string describe(const std::vector<std::string>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) out += (i > 0 ? ", " : "") + keys[i];
  return out;
}

// Like the model parser's cell-type check: every key must belong to the chosen type; a key
// that belongs to another type is named as not applying, anything else as unknown.
template <typename Kind>
void checkKeysForType(const YAML::Node& node, YamlReader& reader, const std::string& path,
                      const std::string& what, const std::string& typeName,
                      const std::vector<std::string>& allowed, const std::vector<Kind>& kinds,
                      std::vector<std::string> (*keysFor)(Kind)) {
  if (!node.IsMap()) reader.fail(node, path, "expected a mapping such as {type: ...}");
  reader.remember(path, node);
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>();
    if (contains(allowed, name)) {
      reader.remember(joinKey(path, name), entry.first);
      continue;
    }
    bool elsewhere = false;
    for (Kind other : kinds) elsewhere = elsewhere || contains(keysFor(other), name);
    reader.fail(
        entry.first, joinKey(path, name),
        elsewhere ? "does not apply to " + what + " type '" + typeName + "'"
                  : "unknown " + what + " key; type '" + typeName + "' reads " + describe(allowed));
  }
}

void requireAbove(YamlReader& reader, const YAML::Node& map, const std::string& path,
                  const std::string& name, double value, double bound) {
  if (map[name] && !(value > bound)) {
    reader.fail(map[name], joinKey(path, name), "must be above " + formatNumber(bound));
  }
}

HessianFreeConfig parseHessianFree(const YAML::Node& node, YamlReader& reader,
                                   const std::string& path) {
  HessianFreeConfig h;
  h.initialLambda = reader.number(node, path, "lambda", h.initialLambda, 0.0, 1e12);
  requireAbove(reader, node, path, "lambda", h.initialLambda, 0.0);
  h.minLambda = reader.number(node, path, "min_lambda", h.minLambda, 0.0, 1e12);
  if (h.minLambda > h.initialLambda) {
    reader.fail(node["min_lambda"], joinKey(path, "min_lambda"),
                "must not exceed lambda (" + formatNumber(h.initialLambda) +
                    "): λ starts there and never falls below the floor");
  }
  h.structuralDamping =
      reader.number(node, path, "structural_damping", h.structuralDamping, 0.0, 1e6);
  // Bounds one step can meet in reasonable time: Martens runs CG to 250 iterations at most.
  h.cgMaxIterations =
      reader.integer(node, path, "cg_max_iterations", h.cgMaxIterations, 1, kMaxCgIterations);
  h.cgMinIterations =
      reader.integer(node, path, "cg_min_iterations", h.cgMinIterations, 1, kMaxCgIterations);
  if (h.cgMinIterations > h.cgMaxIterations) {
    reader.fail(node["cg_min_iterations"] ? node["cg_min_iterations"] : node["cg_max_iterations"],
                joinKey(path, "cg_min_iterations"),
                "must not exceed cg_max_iterations (" + std::to_string(h.cgMaxIterations) + ")");
  }
  h.gradientWindows =
      reader.integer(node, path, "gradient_windows", h.gradientWindows, 1, kMaxStepWindows);
  h.curvatureWindows =
      reader.integer(node, path, "curvature_windows", h.curvatureWindows, 1, kMaxStepWindows);
  if (h.curvatureWindows > h.gradientWindows) {
    reader.fail(node["curvature_windows"] ? node["curvature_windows"] : node["gradient_windows"],
                joinKey(path, "curvature_windows"),
                "must not exceed gradient_windows (" + std::to_string(h.gradientWindows) +
                    "): the curvature is measured on part of the gradient's data");
  }
  h.curvatureSequences =
      reader.integer(node, path, "curvature_sequences", h.curvatureSequences, 0, 1 << 20);
  const std::string preconditioner = reader.choice(
      node, path, "preconditioner", preconditionerName(h.preconditioner),
      {preconditionerName(Preconditioner::None), preconditionerName(Preconditioner::Diagonal)});
  h.preconditioner = preconditioner == "none" ? Preconditioner::None : Preconditioner::Diagonal;
  h.preconditionerPower =
      reader.number(node, path, "preconditioner_power", h.preconditionerPower, 0.0, 1.0);
  h.warmStartDecay = reader.number(node, path, "warm_start_decay", h.warmStartDecay, 0.0, 1.0);
  h.backtracking = reader.boolean(node, path, "backtracking", h.backtracking);
  h.lineSearch = reader.boolean(node, path, "line_search", h.lineSearch);
  return h;
}

OptimizerConfig parseOptimizer(const YAML::Node& node, YamlReader& reader,
                               const std::string& path) {
  OptimizerConfig c;
  if (!node.IsMap()) reader.fail(node, path, "expected a mapping such as {type: adam, lr: 0.001}");
  const auto typeNames = namesOf(kOptimizerKinds, optimizerKindName);
  const std::string typeName = reader.choice(node, path, "type", "adam", typeNames);
  for (OptimizerKind kind : kOptimizerKinds) {
    if (optimizerKindName(kind) == typeName) c.kind = kind;
  }
  checkKeysForType(node, reader, path, "optimizer", typeName, optimizerKeysFor(c.kind),
                   kOptimizerKinds, optimizerKeysFor);

  c.learningRate = reader.number(node, path, "lr", c.learningRate, 0.0, kMaxRate);
  requireAbove(reader, node, path, "lr", c.learningRate, 0.0);
  c.beta1 = reader.number(node, path, "beta1", c.beta1, 0.0, 1.0, false);
  c.beta2 = reader.number(node, path, "beta2", c.beta2, 0.0, 1.0, false);
  c.epsilon = reader.number(node, path, "epsilon", c.epsilon, 0.0, 1.0);
  requireAbove(reader, node, path, "epsilon", c.epsilon, 0.0);
  c.weightDecay = reader.number(node, path, "weight_decay", c.weightDecay, 0.0, 1.0);
  c.momentum = reader.number(node, path, "momentum", c.momentum, 0.0, 1.0, false);
  c.alpha = reader.number(node, path, "alpha", c.alpha, 0.0, 1.0, false);
  c.updateLength = reader.number(node, path, "update_length", c.updateLength, 0.0, kMaxRate);
  requireAbove(reader, node, path, "update_length", c.updateLength, 0.0);
  c.updateLengthDecay =
      reader.number(node, path, "update_length_decay", c.updateLengthDecay, 0.0, 1.0);
  requireAbove(reader, node, path, "update_length_decay", c.updateLengthDecay, 0.0);
  c.nonMonotone = reader.integer(node, path, "non_monotone", c.nonMonotone, 1, 1'000'000);
  if (c.kind == OptimizerKind::HessianFree) c.hessianFree = parseHessianFree(node, reader, path);
  // The update length is this optimiser's learning rate: schedules scale it.
  if (c.kind == OptimizerKind::RmspropNormalized) c.learningRate = c.updateLength;
  return c;
}

ScheduleConfig parseSchedule(const YAML::Node& node, YamlReader& reader, const std::string& path,
                             double baseRate) {
  ScheduleConfig c;
  if (!node.IsMap()) reader.fail(node, path, "expected a mapping such as {type: linear}");
  const auto typeNames = namesOf(kScheduleKinds, scheduleKindName);
  const std::string typeName = reader.choice(node, path, "type", "constant", typeNames);
  for (ScheduleKind kind : kScheduleKinds) {
    if (scheduleKindName(kind) == typeName) c.kind = kind;
  }
  checkKeysForType(node, reader, path, "schedule", typeName, scheduleKeysFor(c.kind),
                   kScheduleKinds, scheduleKeysFor);

  c.floor = reader.number(node, path, "floor", c.floor, 0.0, kMaxRate);
  if (node["floor"] && c.floor >= baseRate) {
    reader.fail(node["floor"], joinKey(path, "floor"),
                "must be below the optimizer's learning rate (" + formatNumber(baseRate) + ")");
  }
  c.gamma = reader.number(node, path, "gamma", c.gamma, 0.0, 1.0);
  requireAbove(reader, node, path, "gamma", c.gamma, 0.0);
  c.patience = reader.integer(node, path, "patience", c.patience, 1, 1'000'000);
  c.factor = reader.number(node, path, "factor", c.factor, 0.0, 1.0, false);
  requireAbove(reader, node, path, "factor", c.factor, 0.0);

  if (c.kind == ScheduleKind::Steps) {
    const std::string key = joinKey(path, "milestones");
    const YAML::Node list = node["milestones"];
    if (!list) reader.fail(node, key, "missing; list the epochs at which the rate drops");
    if (!list.IsSequence() || list.size() == 0) {
      reader.fail(list, key, "expected a non-empty list of epochs, such as [10, 20]");
    }
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string entryKey = key + "[" + std::to_string(i) + "]";
      if (!list[i].IsScalar()) reader.fail(list[i], entryKey, "expected an epoch number");
      const std::string raw = list[i].Scalar();
      int64_t epoch = 0;
      try {
        size_t used = 0;
        epoch = std::stoll(raw, &used);
        if (used != raw.size()) throw std::invalid_argument(raw);
      } catch (const std::exception&) {
        reader.fail(list[i], entryKey, "expected an epoch number, got '" + raw + "'");
      }
      if (epoch < 1) reader.fail(list[i], entryKey, "epochs count from 1; got " + raw);
      if (!c.milestones.empty() && epoch <= c.milestones.back()) {
        reader.fail(list[i], entryKey,
                    "milestones must increase; " + std::to_string(epoch) + " follows " +
                        std::to_string(c.milestones.back()));
      }
      c.milestones.push_back(epoch);
    }
  }
  return c;
}

}  // namespace

std::string optimizerKindName(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::Adam:
      return "adam";
    case OptimizerKind::AdamW:
      return "adamw";
    case OptimizerKind::Rmsprop:
      return "rmsprop";
    case OptimizerKind::Sgd:
      return "sgd";
    case OptimizerKind::RmspropNormalized:
      return "rmsprop_normalized";
    case OptimizerKind::NtAsgd:
      return "nt_asgd";
    case OptimizerKind::HessianFree:
      return "hessian_free";
  }
  return "adam";
}

std::string preconditionerName(Preconditioner preconditioner) {
  return preconditioner == Preconditioner::None ? "none" : "diagonal";
}

std::string scheduleKindName(ScheduleKind kind) {
  switch (kind) {
    case ScheduleKind::Constant:
      return "constant";
    case ScheduleKind::Linear:
      return "linear";
    case ScheduleKind::Exponential:
      return "exponential";
    case ScheduleKind::Steps:
      return "steps";
    case ScheduleKind::Plateau:
      return "plateau";
  }
  return "constant";
}

namespace {

const std::vector<std::string> kTrainingKeys{
    // the batch and its windows
    "batch_size", "bptt", "random_bptt", "predict_last", "carry_state", "clip_norm",
    // how long, how often, when to stop
    "epochs", "max_steps", "max_seconds", "validate_every", "validation_symbols",
    "checkpoint_every", "early_stop_patience", "stop_when_solved",
    // where and how
    "seed", "device", "threads", "bf16", "optimizer", "schedule"};

}  // namespace

TrainingConfig parseTrainingSection(const YAML::Node& node, YamlReader& reader,
                                    const std::string& path) {
  reader.expectMap(node, path, kTrainingKeys);
  TrainingConfig c;
  c.batchSize = reader.integer(node, path, "batch_size", c.batchSize, 1, 1 << 20);
  c.bptt = reader.integer(node, path, "bptt", c.bptt, 2, 1 << 20);
  c.randomBptt = reader.boolean(node, path, "random_bptt", c.randomBptt);
  c.predictLast = reader.integer(node, path, "predict_last", c.predictLast, 0, 1 << 20);
  if (c.predictLast > c.bptt) {
    reader.fail(node["predict_last"], joinKey(path, "predict_last"),
                "must not exceed bptt (" + std::to_string(c.bptt) + ")");
  }
  c.carryState = reader.boolean(node, path, "carry_state", c.carryState);
  c.clipNorm = reader.number(node, path, "clip_norm", c.clipNorm, 0.0, 1e6);
  c.epochs = reader.integer(node, path, "epochs", c.epochs, 1, kMaxRunEpochs);
  c.maxSteps = reader.integer(node, path, "max_steps", c.maxSteps, 0, kMaxRunSteps);
  c.maxSeconds = reader.number(node, path, "max_seconds", c.maxSeconds, 0.0,
                               static_cast<double>(kMaxRunSeconds));
  // 0: only at the end. A run's checkpoint keeps its settings as YAML, so whatever the trainer
  // runs with must read back (a resume reads them).
  c.validateEvery = reader.integer(node, path, "validate_every", c.validateEvery, 0, kMaxCount);
  c.validationSymbols =
      reader.integer(node, path, "validation_symbols", c.validationSymbols, 0, kMaxCount);
  c.checkpointEvery =
      reader.integer(node, path, "checkpoint_every", c.checkpointEvery, 0, kMaxCount);
  c.earlyStopPatience =
      reader.integer(node, path, "early_stop_patience", c.earlyStopPatience, 0, 1'000'000);
  c.stopWhenSolved = reader.boolean(node, path, "stop_when_solved", c.stopWhenSolved);
  c.seed = static_cast<uint64_t>(
      reader.integer(node, path, "seed", 1, 0, std::numeric_limits<int64_t>::max()));
  if (const YAML::Node device = node["device"]) {
    const auto text = reader.text(node, path, "device", c.device);
    if (!parseDeviceName(text)) {
      reader.fail(device, joinKey(path, "device"), deviceNameProblem("device", text));
    }
    c.device = text;
  }
  c.threads = static_cast<int>(reader.integer(node, path, "threads", c.threads, 0, 4096));
  c.bf16 = reader.boolean(node, path, "bf16", c.bf16);
  // bf16 is CUDA's autocast. A file naming a CPU for it contradicts itself; one naming no
  // device leaves the device to the launch (--device, the training panel), where the trainer
  // refuses a CPU.
  if (c.bf16 && node["device"] && !namesCudaDevice(c.device)) {
    reader.fail(node["bf16"], joinKey(path, "bf16"),
                "bf16 autocast needs a GPU, device: cuda (device is '" + c.device +
                    "'; or leave device out and choose the GPU at launch, --device cuda)");
  }

  if (const YAML::Node optimizer = node["optimizer"]) {
    c.optimizer = parseOptimizer(optimizer, reader, joinKey(path, "optimizer"));
  }
  if (const YAML::Node schedule = node["schedule"]) {
    c.schedule =
        parseSchedule(schedule, reader, joinKey(path, "schedule"), c.optimizer.learningRate);
    if (c.optimizer.kind == OptimizerKind::HessianFree &&
        c.schedule.kind != ScheduleKind::Constant) {
      reader.fail(schedule["type"], joinKey(joinKey(path, "schedule"), "type"),
                  "Hessian-free has no learning rate to schedule; leave the schedule out "
                  "(or type: constant)");
    }
  }
  const HessianFreeConfig& hf = c.optimizer.hessianFree;
  // The windows of one step are held at once and read several times: their symbols bound
  // the step's memory and its time.
  if (c.optimizer.kind == OptimizerKind::HessianFree &&
      hf.gradientWindows * c.batchSize > kMaxStepSymbols / c.bptt) {
    const YAML::Node key = node["optimizer"]["gradient_windows"];
    reader.fail(
        key ? key : node["optimizer"], joinKey(joinKey(path, "optimizer"), "gradient_windows"),
        "one Hessian-free step would read " + std::to_string(hf.gradientWindows) +
            " windows of batch_size " + std::to_string(c.batchSize) + " x bptt " +
            std::to_string(c.bptt) + " symbols, more than the " + std::to_string(kMaxStepSymbols) +
            " a step may hold; lower gradient_windows, batch_size or bptt");
  }
  if (c.optimizer.kind == OptimizerKind::HessianFree && hf.curvatureSequences > 0 &&
      c.batchSize % hf.curvatureSequences != 0) {
    const YAML::Node key = node["optimizer"]["curvature_sequences"];
    reader.fail(key, joinKey(joinKey(path, "optimizer"), "curvature_sequences"),
                std::to_string(hf.curvatureSequences) + " does not divide batch_size (" +
                    std::to_string(c.batchSize) +
                    "): every k-th stream of a window is taken, k = batch_size / "
                    "curvature_sequences");
  }
  return c;
}

void emitTrainingSection(YAML::Emitter& out, const TrainingConfig& config) {
  out << YAML::BeginMap;
  out << YAML::Key << "batch_size" << YAML::Value << config.batchSize;
  out << YAML::Key << "bptt" << YAML::Value << config.bptt;
  out << YAML::Key << "random_bptt" << YAML::Value << config.randomBptt;
  out << YAML::Key << "predict_last" << YAML::Value << config.predictLast;
  out << YAML::Key << "carry_state" << YAML::Value << config.carryState;
  out << YAML::Key << "clip_norm" << YAML::Value
      << YAML::DoublePrecision(shortestDigits(config.clipNorm)) << config.clipNorm;
  out << YAML::Key << "epochs" << YAML::Value << config.epochs;
  out << YAML::Key << "max_steps" << YAML::Value << config.maxSteps;
  if (config.maxSeconds > 0) {
    out << YAML::Key << "max_seconds" << YAML::Value
        << YAML::DoublePrecision(shortestDigits(config.maxSeconds)) << config.maxSeconds;
  }
  out << YAML::Key << "validate_every" << YAML::Value << config.validateEvery;
  out << YAML::Key << "validation_symbols" << YAML::Value << config.validationSymbols;
  out << YAML::Key << "checkpoint_every" << YAML::Value << config.checkpointEvery;
  out << YAML::Key << "early_stop_patience" << YAML::Value << config.earlyStopPatience;
  if (config.stopWhenSolved) out << YAML::Key << "stop_when_solved" << YAML::Value << true;
  out << YAML::Key << "seed" << YAML::Value << config.seed;
  // bf16 on a device that is no GPU means the device was left to the launch: leave it out,
  // as it came, so that the section loads again.
  if (!config.bf16 || namesCudaDevice(config.device)) {
    out << YAML::Key << "device" << YAML::Value << config.device;
  }
  out << YAML::Key << "threads" << YAML::Value << config.threads;
  out << YAML::Key << "bf16" << YAML::Value << config.bf16;

  // Only the keys the chosen type reads, so that the output parses back.
  const OptimizerConfig& o = config.optimizer;
  out << YAML::Key << "optimizer" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << optimizerKindName(o.kind);
  const auto optimizerKeys = optimizerKeysFor(o.kind);
  const auto emitIf = [&out](const std::vector<std::string>& keys, const char* key, auto value) {
    if (!contains(keys, key)) return;
    out << YAML::Key << key << YAML::Value;
    if constexpr (std::is_floating_point_v<decltype(value)>) {
      out << YAML::DoublePrecision(shortestDigits(value));
    }
    out << value;
  };
  emitIf(optimizerKeys, "lr", o.learningRate);
  emitIf(optimizerKeys, "update_length", o.updateLength);
  emitIf(optimizerKeys, "update_length_decay", o.updateLengthDecay);
  emitIf(optimizerKeys, "beta1", o.beta1);
  emitIf(optimizerKeys, "beta2", o.beta2);
  emitIf(optimizerKeys, "momentum", o.momentum);
  emitIf(optimizerKeys, "alpha", o.alpha);
  emitIf(optimizerKeys, "epsilon", o.epsilon);
  emitIf(optimizerKeys, "weight_decay", o.weightDecay);
  emitIf(optimizerKeys, "non_monotone", o.nonMonotone);
  const HessianFreeConfig& h = o.hessianFree;
  emitIf(optimizerKeys, "lambda", h.initialLambda);
  emitIf(optimizerKeys, "min_lambda", h.minLambda);
  emitIf(optimizerKeys, "structural_damping", h.structuralDamping);
  emitIf(optimizerKeys, "cg_max_iterations", h.cgMaxIterations);
  emitIf(optimizerKeys, "cg_min_iterations", h.cgMinIterations);
  emitIf(optimizerKeys, "gradient_windows", h.gradientWindows);
  emitIf(optimizerKeys, "curvature_windows", h.curvatureWindows);
  emitIf(optimizerKeys, "curvature_sequences", h.curvatureSequences);
  emitIf(optimizerKeys, "preconditioner", preconditionerName(h.preconditioner));
  emitIf(optimizerKeys, "preconditioner_power", h.preconditionerPower);
  emitIf(optimizerKeys, "warm_start_decay", h.warmStartDecay);
  emitIf(optimizerKeys, "backtracking", h.backtracking);
  emitIf(optimizerKeys, "line_search", h.lineSearch);
  out << YAML::EndMap;

  const ScheduleConfig& s = config.schedule;
  out << YAML::Key << "schedule" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << scheduleKindName(s.kind);
  const auto scheduleKeys = scheduleKeysFor(s.kind);
  emitIf(scheduleKeys, "floor", s.floor);
  emitIf(scheduleKeys, "gamma", s.gamma);
  if (s.kind == ScheduleKind::Steps) {
    out << YAML::Key << "milestones" << YAML::Value << YAML::Flow << s.milestones;
  }
  emitIf(scheduleKeys, "patience", s.patience);
  emitIf(scheduleKeys, "factor", s.factor);
  out << YAML::EndMap;
  out << YAML::EndMap;
}

double baseLearningRate(const OptimizerConfig& config) {
  return config.kind == OptimizerKind::RmspropNormalized ? config.updateLength
                                                         : config.learningRate;
}

bool hasLearningRate(const OptimizerConfig& config) {
  return config.kind != OptimizerKind::HessianFree;
}

bool operator==(const HessianFreeConfig& a, const HessianFreeConfig& b) {
  return a.initialLambda == b.initialLambda && a.minLambda == b.minLambda &&
         a.structuralDamping == b.structuralDamping && a.cgMaxIterations == b.cgMaxIterations &&
         a.cgMinIterations == b.cgMinIterations && a.gradientWindows == b.gradientWindows &&
         a.curvatureWindows == b.curvatureWindows && a.curvatureSequences == b.curvatureSequences &&
         a.preconditioner == b.preconditioner && a.preconditionerPower == b.preconditionerPower &&
         a.warmStartDecay == b.warmStartDecay && a.backtracking == b.backtracking &&
         a.lineSearch == b.lineSearch;
}

// Equal when of the same type with the same values for the keys that type reads: the others
// are never written nor read back, so they cannot tell two configs apart.
bool operator==(const OptimizerConfig& a, const OptimizerConfig& b) {
  if (a.kind != b.kind) return false;
  const std::pair<const char*, bool> keys[] = {
      {"lr", a.learningRate == b.learningRate},
      {"beta1", a.beta1 == b.beta1},
      {"beta2", a.beta2 == b.beta2},
      {"epsilon", a.epsilon == b.epsilon},
      {"weight_decay", a.weightDecay == b.weightDecay},
      {"momentum", a.momentum == b.momentum},
      {"alpha", a.alpha == b.alpha},
      {"update_length", a.updateLength == b.updateLength},
      {"update_length_decay", a.updateLengthDecay == b.updateLengthDecay},
      {"non_monotone", a.nonMonotone == b.nonMonotone}};
  const auto read = optimizerKeysFor(a.kind);
  for (const auto& [key, same] : keys) {
    if (!same && contains(read, key)) return false;
  }
  return a.kind != OptimizerKind::HessianFree || a.hessianFree == b.hessianFree;
}

bool operator==(const ScheduleConfig& a, const ScheduleConfig& b) {
  return a.kind == b.kind && a.floor == b.floor && a.gamma == b.gamma &&
         a.milestones == b.milestones && a.patience == b.patience && a.factor == b.factor;
}

bool operator==(const TrainingConfig& a, const TrainingConfig& b) {
  return a.optimizer == b.optimizer && a.schedule == b.schedule && a.batchSize == b.batchSize &&
         a.bptt == b.bptt && a.randomBptt == b.randomBptt && a.predictLast == b.predictLast &&
         a.carryState == b.carryState && a.clipNorm == b.clipNorm && a.epochs == b.epochs &&
         a.maxSteps == b.maxSteps && a.maxSeconds == b.maxSeconds &&
         a.validateEvery == b.validateEvery && a.validationSymbols == b.validationSymbols &&
         a.checkpointEvery == b.checkpointEvery && a.earlyStopPatience == b.earlyStopPatience &&
         a.stopWhenSolved == b.stopWhenSolved && a.seed == b.seed && a.device == b.device &&
         a.threads == b.threads && a.bf16 == b.bf16;
}

}  // namespace mrnn::engine
