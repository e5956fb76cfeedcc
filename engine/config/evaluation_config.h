#pragma once

#include <cstdint>
#include <string>

namespace YAML {
class Node;
class Emitter;
}  // namespace YAML

namespace mrnn::engine {

class YamlReader;

enum class DynamicEvalVariant { Sgd, Rms };

// Dynamic evaluation (Krause et al. 2017): adapt the weights to the evaluated text, segment
// by segment, after scoring each segment. SGD: theta -= eta * grad. RMS (the published rule,
// engine/training/evaluator.h): theta += lambda * decrate * (theta0 - theta) - eta * g /
// (MS + epsilon), MS the RMS gradient of the training data gathered with the training batch.
struct DynamicEvalConfig {
  bool enabled = false;
  DynamicEvalVariant variant = DynamicEvalVariant::Rms;
  double learningRate = 1e-5;     // eta
  double decay = 2e-3;            // lambda
  double epsilon = 1e-5;          // epsilon (RMS only)
  int64_t window = 50;            // symbols per segment (and per gradient-statistics window)
  int64_t gradientBatches = 0;    // RMS: 0 = the whole training set, else the first N batches
  int64_t gradientBatchSize = 0;  // RMS: streams per statistics batch; 0 = the training batch
};

// `config` with gradientBatchSize 0 replaced by the training batch size.
DynamicEvalConfig withTrainingBatch(DynamicEvalConfig config, int64_t trainingBatch);

// The most MC dropout masks `evaluation.mc_samples` and `mrnn eval --mc` accept.
inline constexpr int64_t kMaxMcSamples = 100000;

// The `evaluation:` section of a project.
struct EvaluationConfig {
  int64_t batchSize = 1;  // parallel streams when scoring a split
  int64_t bptt = 100;     // window length when scoring
  DynamicEvalConfig dynamic;
  int64_t mcSamples = 0;         // > 0: Monte-Carlo dropout evaluation (Melis §3.3) with N samples
  bool tuneTemperature = false;  // choose the softmax temperature on validation
  double temperatureMin = 0.8;
  double temperatureMax = 1.2;
  int64_t temperatureSteps = 9;
};

EvaluationConfig parseEvaluationSection(const YAML::Node& node, YamlReader& reader,
                                        const std::string& path = "evaluation");
void emitEvaluationSection(YAML::Emitter& out, const EvaluationConfig& config);

}  // namespace mrnn::engine
