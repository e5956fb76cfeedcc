#include "engine/config/model_config_writer.h"

#include <yaml-cpp/yaml.h>

namespace mrnn::engine {
namespace {

void emitLayer(YAML::Emitter& out, const LayerConfig& layer) {
  out << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << cellTypeName(layer.type);
  out << YAML::Key << "hidden_size" << YAML::Value << layer.hiddenSize;
  if (layer.type == CellType::Mrnn) {
    out << YAML::Key << "factor_size" << YAML::Value << layer.mSize;
    out << YAML::Key << "bias" << YAML::Value << layer.bias;
  } else if (hasIntermediateState(layer.type)) {
    out << YAML::Key << "m_size" << YAML::Value << layer.mSize;
  }
  if (isLstmFamily(layer.type)) {
    out << YAML::Key << "output_gate" << YAML::Value
        << (layer.outputGate == OutputGate::Inside ? "inside" : "outside");
  }
  if (layer.type == CellType::Gru && layer.resetAfter) {
    out << YAML::Key << "reset_after" << YAML::Value << true;
  }
  if (layer.type == CellType::Mogrifier) {
    out << YAML::Key << "rounds" << YAML::Value << layer.rounds;
    out << YAML::Key << "rank" << YAML::Value << layer.rank;
    out << YAML::Key << "zigzag" << YAML::Value << layer.zigzag;
  }
  if (layer.type == CellType::Mmlstm) {
    out << YAML::Key << "major_share" << YAML::Value << layer.majorShare;
    out << YAML::Key << "minor_input" << YAML::Value
        << (layer.minorInput == MinorInput::Below ? "below" : "embedding");
  }
  out << YAML::Key << "weight_drop" << YAML::Value << layer.weightDrop;
  out << YAML::Key << "weight_norm" << YAML::Value << layer.weightNorm;
  out << YAML::EndMap;
}

}  // namespace

void emitModelSection(YAML::Emitter& out, const ModelConfig& config) {
  out << YAML::BeginMap;
  out << YAML::Key << "input" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "level" << YAML::Value << inputLevelName(config.input.level);
  out << YAML::Key << "embedding_size" << YAML::Value << config.input.embeddingSize;
  out << YAML::Key << "vocab_size" << YAML::Value << config.input.vocabSize;
  if (config.input.values > 0) out << YAML::Key << "values" << YAML::Value << config.input.values;
  out << YAML::EndMap;

  out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
  for (const auto& layer : config.layers) emitLayer(out, layer);
  out << YAML::EndSeq;

  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << outputKindName(config.output.kind);
  if (config.output.kind == OutputKind::MixtureOfSoftmaxes) {
    out << YAML::Key << "mixtures" << YAML::Value << config.output.mixtures;
    out << YAML::Key << "latent_size" << YAML::Value << config.output.latentSize;
  }
  if (config.output.kind == OutputKind::Linear) {
    out << YAML::Key << "size" << YAML::Value << config.output.size;
  } else {
    out << YAML::Key << "tie_embeddings" << YAML::Value << config.output.tieEmbeddings;
  }
  out << YAML::EndMap;

  const DropoutConfig& d = config.dropout;
  out << YAML::Key << "dropout" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "embedding" << YAML::Value << d.embedding;
  out << YAML::Key << "token" << YAML::Value << d.token;
  out << YAML::Key << "hidden" << YAML::Value << d.hidden;
  out << YAML::Key << "state" << YAML::Value << d.state;
  out << YAML::Key << "output" << YAML::Value << d.output;
  out << YAML::EndMap;

  out << YAML::Key << "init" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "seed" << YAML::Value << config.init.seed;
  out << YAML::Key << "recurrent" << YAML::Value << recurrentInitName(config.init.recurrent);
  out << YAML::Key << "recurrent_scale" << YAML::Value << config.init.recurrentScale;
  // Written only where set: a checkpoint's stored model section from before the key must still
  // equal the project's.
  if (config.init.inputScale != 1.0) {
    out << YAML::Key << "input_scale" << YAML::Value << config.init.inputScale;
  }
  if (config.init.recurrent == RecurrentInit::Sparse) {
    out << YAML::Key << "sparse_connections" << YAML::Value << config.init.sparseConnections;
  }
  out << YAML::Key << "forget_bias" << YAML::Value << config.init.forgetBias;
  out << YAML::EndMap;
  out << YAML::EndMap;
}

}  // namespace mrnn::engine
