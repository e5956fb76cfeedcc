#include "engine/config/model_config_parser.h"

#include <limits>

#include "engine/config/model_check.h"
#include "engine/config/yaml_reader.h"

namespace mrnn::engine {
namespace {

constexpr int64_t kMaxWidth = 1 << 20;

std::vector<std::string> cellTypeNames() {
  std::vector<std::string> names;
  for (CellType type : allCellTypes()) names.push_back(cellTypeName(type));
  return names;
}

LayerConfig parseLayer(const YAML::Node& node, YamlReader& reader, const std::string& path) {
  if (!node.IsMap())
    reader.fail(node, path, "expected a mapping such as {type: lstm, hidden_size: 512}");
  if (!node["type"]) reader.fail(node, path + ".type", "missing; every layer needs a cell type");
  LayerConfig layer;
  const std::string typeName = reader.choice(node, path, "type", "", cellTypeNames());
  layer.type = *cellTypeFromName(typeName);

  // Check keys against this cell type: a key that would be silently ignored is an error.
  reader.expectUniqueKeys(node, path);
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>();
    const auto allowed = layerKeysFor(layer.type);
    bool known = false;
    for (const auto& key : allowed) known = known || key == name;
    if (known) {
      reader.remember(joinKey(path, name), entry.first);
      continue;
    }
    bool elsewhere = false;
    for (CellType other : allCellTypes()) {
      for (const auto& key : layerKeysFor(other)) elsewhere = elsewhere || key == name;
    }
    reader.fail(entry.first, joinKey(path, name),
                elsewhere ? "does not apply to cell type '" + typeName + "'" : "unknown layer key");
  }

  layer.hiddenSize = reader.integer(node, path, "hidden_size", layer.hiddenSize, 1, kMaxWidth);
  const char* sizeKey = layer.type == CellType::Mrnn ? "factor_size" : "m_size";
  layer.mSize = reader.integer(node, path, sizeKey, 0, 0, kMaxWidth);
  layer.weightDrop = reader.number(node, path, "weight_drop", 0.0, 0.0, 1.0, false);
  layer.weightNorm = reader.boolean(node, path, "weight_norm", false);
  layer.outputGate =
      reader.choice(node, path, "output_gate", "outside", {"outside", "inside"}) == "inside"
          ? OutputGate::Inside
          : OutputGate::Outside;
  layer.rounds = static_cast<int>(reader.integer(node, path, "rounds", layer.rounds, 0, 32));
  layer.rank = reader.integer(node, path, "rank", layer.rank, std::numeric_limits<int32_t>::min(),
                              kMaxWidth);
  layer.zigzag = reader.boolean(node, path, "zigzag", true);
  layer.bias = reader.boolean(node, path, "bias", false);
  layer.resetAfter = reader.boolean(node, path, "reset_after", false);
  layer.majorShare = reader.number(node, path, "major_share", layer.majorShare, 0.0, 1.0);
  if (node["major_share"] && layer.majorShare <= 0.0) {
    reader.fail(node["major_share"], joinKey(path, "major_share"),
                "must be above 0: the major LSTM carries the layer");
  }
  layer.minorInput =
      reader.choice(node, path, "minor_input", "embedding", {"embedding", "below"}) == "below"
          ? MinorInput::Below
          : MinorInput::Embedding;
  return layer;
}

}  // namespace

std::vector<std::string> layerKeysFor(CellType type) {
  std::vector<std::string> keys{"type", "hidden_size", "weight_drop", "weight_norm"};
  if (type == CellType::Mrnn) keys.insert(keys.end(), {"factor_size", "bias"});
  if (hasIntermediateState(type) && type != CellType::Mrnn) keys.push_back("m_size");
  if (isLstmFamily(type)) keys.push_back("output_gate");
  if (type == CellType::Gru) keys.push_back("reset_after");
  if (type == CellType::Mogrifier) keys.insert(keys.end(), {"rounds", "rank", "zigzag"});
  if (type == CellType::Mmlstm) keys.insert(keys.end(), {"major_share", "minor_input"});
  return keys;
}

ModelConfig parseModelSection(const YAML::Node& node, YamlReader& reader, const std::string& path,
                              bool checkCombinations) {
  reader.expectMap(node, path, {"input", "layers", "output", "dropout", "init"});
  ModelConfig config;

  if (const YAML::Node input = node["input"]) {
    const std::string key = joinKey(path, "input");
    reader.expectMap(input, key, {"level", "embedding_size", "vocab_size", "values"});
    const std::string level = reader.choice(input, key, "level", "char", {"byte", "char", "word"});
    config.input.level = level == "byte"   ? InputLevel::Byte
                         : level == "word" ? InputLevel::Word
                                           : InputLevel::Char;
    config.input.embeddingSize = reader.integer(input, key, "embedding_size", 0, 0, kMaxWidth);
    config.input.vocabSize = reader.integer(input, key, "vocab_size", 0, 0, 100'000'000);
    config.input.values = reader.integer(input, key, "values", 0, 0, kMaxWidth);
  }

  const std::string layersKey = joinKey(path, "layers");
  const YAML::Node layers = node["layers"];
  if (!layers) reader.fail(node, layersKey, "missing; list the recurrent layers, bottom first");
  if (!layers.IsSequence() || layers.size() == 0) {
    reader.fail(layers, layersKey, "expected a non-empty list of layers");
  }
  reader.remember(layersKey, layers);
  for (size_t i = 0; i < layers.size(); ++i) {
    config.layers.push_back(
        parseLayer(layers[i], reader, layersKey + "[" + std::to_string(i) + "]"));
  }

  if (const YAML::Node output = node["output"]) {
    const std::string key = joinKey(path, "output");
    reader.expectMap(output, key, {"type", "mixtures", "latent_size", "tie_embeddings", "size"});
    const std::string kind =
        reader.choice(output, key, "type", "softmax", {"softmax", "mos", "linear"});
    config.output.kind = kind == "mos"      ? OutputKind::MixtureOfSoftmaxes
                         : kind == "linear" ? OutputKind::Linear
                                            : OutputKind::Softmax;
    config.output.size = reader.integer(output, key, "size", 1, 1, kMaxWidth);
    if (config.output.kind != OutputKind::Linear && output["size"]) {
      reader.fail(output["size"], joinKey(key, "size"), "applies only to type: linear");
    }
    if (config.output.kind == OutputKind::Linear &&
        (output["mixtures"] || output["latent_size"] || output["tie_embeddings"])) {
      reader.fail(output, key,
                  "type: linear predicts real numbers: 'mixtures', 'latent_size' and "
                  "'tie_embeddings' do not apply");
    }
    config.output.mixtures = reader.integer(output, key, "mixtures", 15, 1, 1024);
    config.output.latentSize = reader.integer(output, key, "latent_size", 0, 0, kMaxWidth);
    config.output.tieEmbeddings = reader.boolean(output, key, "tie_embeddings", false);
    if (config.output.kind == OutputKind::Softmax &&
        (output["mixtures"] || output["latent_size"])) {
      reader.fail(output["mixtures"] ? output["mixtures"] : output["latent_size"], key,
                  "'mixtures' and 'latent_size' apply only to type: mos");
    }
  }

  if (const YAML::Node dropout = node["dropout"]) {
    const std::string key = joinKey(path, "dropout");
    reader.expectMap(dropout, key, {"embedding", "token", "hidden", "state", "output"});
    DropoutConfig& d = config.dropout;
    d.embedding = reader.number(dropout, key, "embedding", 0.0, 0.0, 1.0, false);
    d.token = reader.number(dropout, key, "token", 0.0, 0.0, 1.0, false);
    d.hidden = reader.number(dropout, key, "hidden", 0.0, 0.0, 1.0, false);
    d.state = reader.number(dropout, key, "state", 0.0, 0.0, 1.0, false);
    d.output = reader.number(dropout, key, "output", 0.0, 0.0, 1.0, false);
  }

  if (const YAML::Node init = node["init"]) {
    const std::string key = joinKey(path, "init");
    reader.expectMap(init, key,
                     {"seed", "recurrent", "recurrent_scale", "input_scale", "sparse_connections",
                      "forget_bias"});
    config.init.seed = static_cast<uint64_t>(
        reader.integer(init, key, "seed", 1, 0, std::numeric_limits<int64_t>::max()));
    const std::string recurrent =
        reader.choice(init, key, "recurrent", "orthogonal", {"orthogonal", "uniform", "sparse"});
    for (RecurrentInit kind :
         {RecurrentInit::Orthogonal, RecurrentInit::Uniform, RecurrentInit::Sparse}) {
      if (recurrentInitName(kind) == recurrent) config.init.recurrent = kind;
    }
    config.init.sparseConnections =
        reader.integer(init, key, "sparse_connections", 15, 1, 1'000'000);
    if (init["sparse_connections"] && config.init.recurrent != RecurrentInit::Sparse) {
      reader.fail(init["sparse_connections"], joinKey(key, "sparse_connections"),
                  "applies to recurrent: sparse only (recurrent is '" + recurrent + "')");
    }
    config.init.recurrentScale = reader.number(init, key, "recurrent_scale", 0.7, 0.0, 100.0);
    config.init.inputScale = reader.number(init, key, "input_scale", 1.0, 0.0, 100.0);
    config.init.forgetBias = reader.number(init, key, "forget_bias", 3.0, -100.0, 100.0);
  }

  const auto problems =
      checkCombinations ? checkModel(config, config.input.vocabSize) : std::vector<ModelProblem>{};
  if (!problems.empty()) {
    reader.failAtKey(joinKey(path, problems.front().key), problems.front().reason);
  }
  return config;
}

ModelConfig parseModelText(const std::string& text, const std::string& file) {
  YamlReader reader(file);
  const YAML::Node root = loadYamlText(text, file);
  return parseModelSection(root, reader, "model");
}

}  // namespace mrnn::engine
