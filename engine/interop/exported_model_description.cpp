#include "engine/interop/exported_model_description.h"

#include <yaml-cpp/yaml.h>

#include <vector>

#include "engine/config/model_config_parser.h"
#include "engine/interop/named_tensors.h"
#include "engine/store/text_format.h"
#include "engine/training/checkpoint.h"

namespace mrnn::engine {
namespace {

std::string field(const std::string& key, const std::string& value) {
  return jsonString(key) + ": " + value;
}
std::string flag(bool value) {
  return value ? "true" : "false";
}

std::string layerJson(const LayerConfig& layer) {
  const std::vector<std::string> fields = {
      field("type", jsonString(cellTypeName(layer.type))),
      field("hidden_size", std::to_string(layer.hiddenSize)),
      field("m_size", std::to_string(layer.intermediateSize())),
      field("output_gate",
            jsonString(layer.outputGate == OutputGate::Inside ? "inside" : "outside")),
      field("rounds", std::to_string(layer.rounds)),
      field("rank", std::to_string(layer.rank)),
      field("zigzag", flag(layer.zigzag)),
      field("major_size", std::to_string(layer.majorSize())),
      field("minor_size", std::to_string(layer.minorSize())),
      field("minor_input",
            jsonString(layer.minorInput == MinorInput::Below ? "below" : "embedding")),
      field("bias", flag(layer.bias))};
  std::string text = "{";
  for (size_t i = 0; i < fields.size(); ++i) text += (i ? ", " : "") + fields[i];
  return text + "}";
}

int64_t latentSize(const ModelConfig& model) {
  if (model.output.tieEmbeddings) return model.input.embeddingSize;
  if (model.output.latentSize > 0) return model.output.latentSize;
  return model.layers.empty() ? 0 : model.layers.back().hiddenSize;
}

}  // namespace

std::string exportDescriptionJson(const ModelConfig& model, int64_t vocab,
                                  const Vocabulary& vocabulary, const ExportSource& source) {
  std::string layers;
  for (size_t i = 0; i < model.layers.size(); ++i) {
    layers += (i ? ",\n      " : "") + layerJson(model.layers[i]);
  }
  std::string symbols;
  if (vocabulary.level() != InputLevel::Byte) {
    symbols = ", \"symbols\": [";
    for (int64_t id = 0; id < vocabulary.size(); ++id) {
      symbols += (id ? ", " : "") + jsonString(vocabulary.symbol(id));
    }
    symbols += "]";
  }
  const std::string level = jsonString(inputLevelName(model.input.level));
  return std::string("{\n  \"format\": \"") + kExportFormatTag + "\",\n  \"version\": 1,\n" +
         "  \"model\": {\n    \"input\": {" + field("level", level) + ", " +
         field("embedding_size", std::to_string(model.input.embeddingSize)) + ", " +
         field("vocabulary_size", std::to_string(vocab)) + "},\n    \"layers\": [\n      " +
         layers + "],\n    \"output\": {" +
         field("kind", jsonString(outputKindName(model.output.kind))) + ", " +
         field("tied", flag(model.output.tieEmbeddings)) + ", " +
         field("mixtures", std::to_string(model.output.mixtures)) + ", " +
         field("latent_size", std::to_string(latentSize(model))) + "}\n  },\n  " +
         field("model_yaml", jsonString(modelSectionYaml(model))) + ",\n  \"vocabulary\": {" +
         field("level", jsonString(inputLevelName(vocabulary.level()))) + symbols + "},\n" +
         "  \"source\": {" + field("run", std::to_string(source.run)) + ", " +
         field("run_name", jsonString(source.runName)) + ", " +
         field("checkpoint", jsonString(source.checkpoint)) + ", " +
         field("step", std::to_string(source.step)) + ", " +
         field("best_valid_bits", jsonNumber(source.bestValidBits)) + "}\n}\n";
}

ExportedDescription readExportDescription(const std::string& json, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(json);
  } catch (const YAML::Exception& error) {
    throw InteropError("'" + file + "' is not a readable model description: " + error.msg);
  }
  if (!root.IsMap() || !root["format"] || root["format"].as<std::string>() != kExportFormatTag) {
    throw InteropError("'" + file + "' is not a model description written by mrnn export " +
                       "(its \"format\" is not \"" + kExportFormatTag + "\")");
  }
  if (!root["version"] || root["version"].as<int>() != 1) {
    throw InteropError("'" + file + "' is a model description of another version; this " +
                       "build reads version 1");
  }
  if (!root["model_yaml"] || !root["vocabulary"] || !root["vocabulary"]["level"]) {
    throw InteropError("'" + file + "' lacks \"model_yaml\" or \"vocabulary\"");
  }
  ExportedDescription description;
  try {
    description.model = parseModelText(root["model_yaml"].as<std::string>(), file + " model_yaml");
    const std::string level = root["vocabulary"]["level"].as<std::string>();
    if (level == "byte") {
      description.vocabulary = Vocabulary::bytes();
    } else {
      std::vector<std::string> symbols;
      for (const auto& symbol : root["vocabulary"]["symbols"])
        symbols.push_back(symbol.as<std::string>());
      description.vocabulary = Vocabulary::fromSymbols(
          level == "word" ? InputLevel::Word : InputLevel::Char, std::move(symbols));
    }
  } catch (const InteropError&) {
    throw;
  } catch (const std::exception& error) {
    throw InteropError("'" + file + "': " + error.what());
  }
  return description;
}

}  // namespace mrnn::engine
