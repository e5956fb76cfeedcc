#include "engine/interop/exported_model_description.h"

#include <yaml-cpp/yaml.h>

#include <vector>

#include "engine/config/config_error.h"
#include "engine/config/model_config_parser.h"
#include "engine/config/yaml_reader.h"
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
      field("bias", flag(layer.bias)),
      field("reset_after", flag(layer.resetAfter))};
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

namespace {

// A scalar field of the description, or an InteropError naming it.
std::string textField(const YAML::Node& node, const std::string& name, const std::string& file) {
  if (!node.IsMap() || !node[name] || !node[name].IsScalar()) {
    throw InteropError("'" + file + "' lacks the text field \"" + name + "\"");
  }
  return node[name].Scalar();
}

}  // namespace

ExportedDescription readExportDescription(const std::string& json, const std::string& file) {
  YAML::Node root;
  try {
    root = loadYamlText(json, file);
  } catch (const ConfigError& error) {
    throw InteropError("'" + file + "' is not a readable model description: " + error.message() +
                       (error.line() > 0 ? " (line " + std::to_string(error.line()) + ")" : ""));
  }
  if (!root.IsMap() || !root["format"] || !root["format"].IsScalar() ||
      root["format"].Scalar() != kExportFormatTag) {
    throw InteropError("'" + file + "' is not a model description written by mrnn export " +
                       "(its \"format\" is not \"" + kExportFormatTag + "\")");
  }
  if (textField(root, "version", file) != "1") {
    throw InteropError("'" + file + "' is a model description of another version; this " +
                       "build reads version 1");
  }
  ExportedDescription description;
  const std::string modelYaml = textField(root, "model_yaml", file);
  const YAML::Node vocabulary = root["vocabulary"];
  const std::string level = textField(vocabulary, "level", file);
  if (level != "byte" && level != "char" && level != "word") {
    throw InteropError("'" + file + "': vocabulary level '" + level +
                       "' is none of byte, char, word");
  }
  try {
    description.model = parseModelText(modelYaml, file + " model_yaml");
    if (level == "byte") {
      description.vocabulary = Vocabulary::bytes();
    } else {
      const YAML::Node list = vocabulary["symbols"];
      if (!list.IsSequence()) throw InteropError("'" + file + "': vocabulary lacks \"symbols\"");
      std::vector<std::string> symbols;
      for (const auto& symbol : list) {
        if (!symbol.IsScalar()) {
          throw InteropError("'" + file + "': vocabulary symbol " + std::to_string(symbols.size()) +
                             " is not text");
        }
        symbols.push_back(symbol.Scalar());
      }
      description.vocabulary = Vocabulary::fromSymbols(
          level == "word" ? InputLevel::Word : InputLevel::Char, std::move(symbols));
    }
  } catch (const InteropError&) {
    throw;
  } catch (const std::exception& error) {
    throw InteropError("'" + file + "': " + error.what());
  }
  // A level the description contradicts would turn a model of characters into one of words.
  if (description.model.input.level != description.vocabulary.level()) {
    throw InteropError("'" + file + "': its model reads " +
                       inputLevelName(description.model.input.level) +
                       " level, its vocabulary is " + level + " level");
  }
  return description;
}

}  // namespace mrnn::engine
