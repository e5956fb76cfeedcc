#include "engine/config/evaluation_config.h"

#include <yaml-cpp/yaml.h>

#include "engine/config/yaml_reader.h"

namespace mrnn::engine {

DynamicEvalConfig withTrainingBatch(DynamicEvalConfig config, int64_t trainingBatch) {
  if (config.gradientBatchSize <= 0) config.gradientBatchSize = trainingBatch;
  return config;
}

EvaluationConfig parseEvaluationSection(const YAML::Node& node, YamlReader& reader,
                                        const std::string& path) {
  reader.expectMap(node, path, {"batch_size", "bptt", "dynamic", "mc_samples", "temperature"});
  EvaluationConfig config;
  config.batchSize = reader.integer(node, path, "batch_size", config.batchSize, 1, 65536);
  config.bptt = reader.integer(node, path, "bptt", config.bptt, 1, 1 << 20);
  config.mcSamples = reader.integer(node, path, "mc_samples", 0, 0, kMaxMcSamples);

  if (const YAML::Node dynamic = node["dynamic"]) {
    const std::string key = joinKey(path, "dynamic");
    reader.expectMap(dynamic, key,
                     {"enabled", "variant", "lr", "decay", "epsilon", "window", "gradient_batches",
                      "gradient_batch_size"});
    DynamicEvalConfig& d = config.dynamic;
    d.enabled = reader.boolean(dynamic, key, "enabled", true);
    d.variant = reader.choice(dynamic, key, "variant", "rms", {"sgd", "rms"}) == "sgd"
                    ? DynamicEvalVariant::Sgd
                    : DynamicEvalVariant::Rms;
    d.learningRate = reader.number(dynamic, key, "lr", d.learningRate, 0.0, 10.0);
    d.decay = reader.number(dynamic, key, "decay", d.decay, 0.0, 1.0);
    d.epsilon = reader.number(dynamic, key, "epsilon", d.epsilon, 1e-12, 1.0);
    d.window = reader.integer(dynamic, key, "window", d.window, 1, 1 << 20);
    d.gradientBatches =
        reader.integer(dynamic, key, "gradient_batches", d.gradientBatches, 0, 1 << 20);
    d.gradientBatchSize =
        reader.integer(dynamic, key, "gradient_batch_size", d.gradientBatchSize, 0, 65536);
    if (d.variant == DynamicEvalVariant::Sgd && dynamic["epsilon"]) {
      reader.fail(dynamic["epsilon"], joinKey(key, "epsilon"), "applies only to variant: rms");
    }
  }

  if (const YAML::Node temperature = node["temperature"]) {
    const std::string key = joinKey(path, "temperature");
    reader.expectMap(temperature, key, {"tune", "min", "max", "steps"});
    config.tuneTemperature = reader.boolean(temperature, key, "tune", true);
    config.temperatureMin =
        reader.number(temperature, key, "min", config.temperatureMin, 0.05, 10.0);
    config.temperatureMax =
        reader.number(temperature, key, "max", config.temperatureMax, 0.05, 10.0);
    config.temperatureSteps =
        reader.integer(temperature, key, "steps", config.temperatureSteps, 2, 1000);
    if (config.temperatureMax <= config.temperatureMin) {
      reader.fail(temperature["max"] ? temperature["max"] : temperature, joinKey(key, "max"),
                  "must be above min");
    }
  }
  return config;
}

void emitEvaluationSection(YAML::Emitter& out, const EvaluationConfig& config) {
  out << YAML::BeginMap;
  out << YAML::Key << "batch_size" << YAML::Value << config.batchSize;
  out << YAML::Key << "bptt" << YAML::Value << config.bptt;
  out << YAML::Key << "mc_samples" << YAML::Value << config.mcSamples;
  const DynamicEvalConfig& d = config.dynamic;
  out << YAML::Key << "dynamic" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "enabled" << YAML::Value << d.enabled;
  out << YAML::Key << "variant" << YAML::Value
      << (d.variant == DynamicEvalVariant::Sgd ? "sgd" : "rms");
  out << YAML::Key << "lr" << YAML::Value << d.learningRate;
  out << YAML::Key << "decay" << YAML::Value << d.decay;
  if (d.variant == DynamicEvalVariant::Rms)
    out << YAML::Key << "epsilon" << YAML::Value << d.epsilon;
  out << YAML::Key << "window" << YAML::Value << d.window;
  out << YAML::Key << "gradient_batches" << YAML::Value << d.gradientBatches;
  out << YAML::Key << "gradient_batch_size" << YAML::Value << d.gradientBatchSize;
  out << YAML::EndMap;
  out << YAML::Key << "temperature" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "tune" << YAML::Value << config.tuneTemperature;
  out << YAML::Key << "min" << YAML::Value << config.temperatureMin;
  out << YAML::Key << "max" << YAML::Value << config.temperatureMax;
  out << YAML::Key << "steps" << YAML::Value << config.temperatureSteps;
  out << YAML::EndMap;
  out << YAML::EndMap;
}

}  // namespace mrnn::engine
