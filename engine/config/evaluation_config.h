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

// Dynamic evaluation (Krause et al. 2017): adapt the weights to the evaluated text, window by
// window, after scoring each window. SGD: theta -= eta * grad. RMS: per-parameter steps
// eta * grad / (sqrt(MS) + epsilon), MS the mean squared gradient of the training data, and
// a decay toward the trained weights: theta += lambda * (theta_trained - theta) (the RMS
// variant scales lambda per parameter by RMS / mean RMS, as the paper's rule does).
struct DynamicEvalConfig {
  bool enabled = false;
  DynamicEvalVariant variant = DynamicEvalVariant::Rms;
  double learningRate = 1e-5;    // eta (measured: 1e-5 helps a small char mLSTM, 1e-4 hurts)
  double decay = 2e-3;           // lambda
  double epsilon = 1e-5;         // epsilon (RMS only)
  int64_t window = 50;           // symbols per adaptation step
  int64_t gradientBatches = 20;  // RMS: training windows used to estimate MS
};

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
