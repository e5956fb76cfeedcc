#include "engine/interop/imported_model.h"

#include <torch/torch.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "engine/interop/exported_model_description.h"
#include "engine/interop/import_vocabulary.h"
#include "engine/interop/model_file_kind.h"
#include "engine/interop/safetensors_file.h"
#include "engine/interop/torch_file.h"
#include "engine/io/atomic_file.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

// What a file holds: its tensors and, for a file `mrnn export` wrote, its description.
struct FileContent {
  NamedTensors tensors;
  std::string description;
};

FileContent readFileContent(const std::string& path) {
  FileContent content;
  if (isSafetensorsName(path)) {
    auto file = readSafetensors(path);
    content.tensors = std::move(file.tensors);
    if (file.metadata.count("mrnn")) content.description = file.metadata["mrnn"];
    return content;
  }
  content.tensors = readTorchStateDict(path);
  if (std::filesystem::is_regular_file(exportDescriptionPath(path))) {
    content.description = readWholeFile(exportDescriptionPath(path));
  }
  return content;
}

// The parts of a PyTorch language model: embedding, recurrent layers, decoder.
struct PyTorchParts {
  std::string embedding;
  std::string rnn;  // the prefix before weight_ih_l0 ("rnn.")
  std::string decoderWeight;
  std::string decoderBias;
};

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
  return text;
}

// Finds the parts by the shapes PyTorch's modules give them: the recurrent layers by their
// weight_ih_l0, the embedding as a matrix without a bias whose width the first layer reads,
// the decoder as a matrix of the vocabulary's rows with a bias. A mapping file overrides.
// The mapping file: each part's name, once.
PyTorchParts readMapping(const std::string& path) {
  std::string text;
  try {
    text = readWholeFile(path);
  } catch (const std::exception& error) {
    throw InteropError(error.what());
  }
  YAML::Node mapping;
  try {
    mapping = YAML::Load(text);
  } catch (const YAML::ParserException& error) {
    throw InteropError("'" + path + "':" + std::to_string(error.mark.line + 1) + ": not YAML (" +
                       error.msg + ")");
  }
  const std::string keys = "embedding, rnn, decoder_weight, decoder_bias";
  if (!mapping.IsMap()) {
    throw InteropError("'" + path + "' is not a mapping of the model's parts (" + keys + ")");
  }
  PyTorchParts parts;
  std::set<std::string> seen;
  for (const auto& item : mapping) {
    const std::string at = "'" + path + "':" + std::to_string(item.first.Mark().line + 1) + ": ";
    if (!item.first.IsScalar()) throw InteropError(at + "a key that is not a name (" + keys + ")");
    const std::string key = item.first.Scalar();
    if (!seen.insert(key).second) {
      throw InteropError(at + "'" + key + "' appears twice; keep one");
    }
    if (!item.second.IsScalar() || item.second.Scalar().empty()) {
      throw InteropError(at + key + ": expected the name of a tensor in the file");
    }
    const std::string value = item.second.Scalar();
    if (key == "embedding")
      parts.embedding = value;
    else if (key == "rnn")
      parts.rnn = value;
    else if (key == "decoder_weight")
      parts.decoderWeight = value;
    else if (key == "decoder_bias")
      parts.decoderBias = value;
    else
      throw InteropError(at + "unknown key '" + key + "' (" + keys + ")");
  }
  return parts;
}

PyTorchParts findParts(const NamedTensors& tensors, const ImportRequest& request) {
  PyTorchParts parts;
  if (!request.mappingFile.empty()) parts = readMapping(request.mappingFile);
  if (parts.rnn.empty()) {
    for (const auto& [name, tensor] : tensors) {
      const auto at = name.rfind("weight_ih_l0");
      if (at != std::string::npos && at + 12 == name.size()) parts.rnn = name.substr(0, at);
    }
  }
  const torch::Tensor* first = findTensor(tensors, parts.rnn + "weight_ih_l0");
  if (!first) {
    throw InteropError("'" + request.file + "' holds no recurrent layer (no '" +
                       (parts.rnn.empty() ? std::string("<prefix>") : parts.rnn) +
                       "weight_ih_l0' of a torch.nn.LSTM, GRU or RNN); its keys are " + joined([&] {
                         std::vector<std::string> names;
                         for (const auto& entry : tensors) names.push_back(entry.first);
                         return names;
                       }()));
  }
  if (first->dim() != 2) {
    throw InteropError("'" + request.file + "': '" + parts.rnn + "weight_ih_l0' has shape " +
                       shapeText(first->sizes()) + "; a recurrent layer's weights are matrices");
  }
  std::vector<std::string> embeddings, decoders;
  for (const auto& [name, tensor] : tensors) {
    if (name.rfind(parts.rnn, 0) == 0 && !parts.rnn.empty()) continue;
    if (tensor.dim() != 2 || name.size() < 7 || name.compare(name.size() - 7, 7, ".weight") != 0)
      continue;
    const std::string stem = name.substr(0, name.size() - 7);
    const torch::Tensor* bias = findTensor(tensors, stem + ".bias");
    if (bias && bias->dim() == 1 && bias->size(0) == tensor.size(0))
      decoders.push_back(name);
    else if (!bias && first->dim() == 2 && tensor.size(1) == first->size(1))
      embeddings.push_back(name);
  }
  if (parts.embedding.empty() && embeddings.size() == 1) parts.embedding = embeddings.front();
  if (parts.decoderWeight.empty() && decoders.size() == 1) {
    parts.decoderWeight = decoders.front();
    parts.decoderBias = decoders.front().substr(0, decoders.front().size() - 7) + ".bias";
  }
  if (parts.embedding.empty() || parts.decoderWeight.empty()) {
    const auto& candidates = parts.embedding.empty() ? embeddings : decoders;
    throw InteropError(
        "'" + request.file + "': cannot tell " +
        (parts.embedding.empty() ? "the embedding" : "the decoder") +
        (candidates.empty() ? " (no matrix has its shape)"
                            : " (candidates: " + joined(candidates) + ")") +
        "; name the parts in a mapping file (--mapping: embedding, rnn, decoder_weight, "
        "decoder_bias)");
  }
  return parts;
}

const torch::Tensor& need(const NamedTensors& tensors, const std::string& name,
                          const std::string& file) {
  const torch::Tensor* tensor = findTensor(tensors, name);
  if (!tensor) throw InteropError("'" + file + "' lacks '" + name + "'");
  return *tensor;
}

// A tensor of exactly `shape`, or an InteropError naming it, its shape and the one wanted.
void expectShape(const torch::Tensor& tensor, const std::string& name,
                 const std::vector<int64_t>& shape, const std::string& file,
                 const std::string& because) {
  if (tensor.sizes() == torch::IntArrayRef(shape)) return;
  throw InteropError("'" + file + "': '" + name + "' has shape " + shapeText(tensor.sizes()) +
                     " where " + because + " needs " + shapeText(shape));
}

// The recurrent layers' kind, from the first layer's matrices: 4H rows an LSTM, H an RNN, 3H
// (in both) PyTorch's GRU. Every shape the mapping relies on is checked first.
int gatesOf(const torch::Tensor& wih, const torch::Tensor& whh, const std::string& rnn,
            const std::string& file) {
  const std::string ih = rnn + "weight_ih_l0";
  const std::string hh = rnn + "weight_hh_l0";
  if (whh.dim() != 2 || wih.dim() != 2) {
    throw InteropError("'" + file + "': '" + (whh.dim() != 2 ? hh : ih) + "' has shape " +
                       shapeText((whh.dim() != 2 ? whh : wih).sizes()) +
                       "; a recurrent layer's weights are matrices");
  }
  const int64_t hidden = whh.size(1);
  if (hidden == 0) throw InteropError("'" + file + "': '" + hh + "' has no columns (0 units)");
  const int64_t rows = whh.size(0);
  int64_t gates = rows % hidden == 0 ? rows / hidden : 0;
  if (gates == 3 && wih.size(0) != rows) gates = 0;  // a GRU is one when both matrices say so
  if (gates != 4 && gates != 3 && gates != 1) {
    throw InteropError("'" + file + "': '" + hh + "' has shape " + shapeText(whh.sizes()) +
                       ": an LSTM of " + std::to_string(hidden) + " units has " +
                       std::to_string(4 * hidden) + " rows, a GRU " + std::to_string(3 * hidden) +
                       ", an RNN " + std::to_string(hidden));
  }
  return static_cast<int>(gates);
}

CellType cellOfGates(int gates) {
  return gates == 4 ? CellType::Lstm : gates == 3 ? CellType::Gru : CellType::Rnn;
}

const char* kindOfGates(int gates) {
  return gates == 4 ? "LSTM" : gates == 3 ? "GRU" : "RNN";
}

// PyTorch's GRU stacks r, z, n and keeps h' = (1 - z) n + z h; the workbench's GRU (in its
// reset_after form) stacks z, r, j with h' = (1 - z) h + z j. So the workbench's z is
// PyTorch's 1 - z = s(-(...)): its rows and bias enter negated.
torch::Tensor gruGateOrder(const torch::Tensor& stacked) {
  auto gates = stacked.chunk(3, 0);
  return torch::cat({-gates[1], gates[0], gates[2]}, 0);
}

// PyTorch's LSTM stacks its gates i, f, g, o; the workbench's LSTM i, f, o, j (j = g).
torch::Tensor lstmGateOrder(const torch::Tensor& stacked) {
  auto gates = stacked.chunk(4, 0);
  return torch::cat({gates[0], gates[1], gates[3], gates[2]}, 0);
}

// One torch.nn.LSTM, GRU or RNN layer as the workbench's cell of the same equations.
// PyTorch's two biases enter the same sum, so they fold into one, except the GRU's b_hn,
// which the reset gate scales: it becomes the reset_after GRU's b_hh.
void mapLayer(const NamedTensors& tensors, const PyTorchParts& parts, int layer, CellType type,
              int64_t inputWidth, const std::string& file, ImportedModel& model,
              std::set<std::string>& used) {
  const std::string suffix = "_l" + std::to_string(layer);
  // Handles, not references: GCC 13 on cannot tell that need() returns into `tensors`.
  const torch::Tensor wih = need(tensors, parts.rnn + "weight_ih" + suffix, file);
  const torch::Tensor whh = need(tensors, parts.rnn + "weight_hh" + suffix, file);
  used.insert({parts.rnn + "weight_ih" + suffix, parts.rnn + "weight_hh" + suffix});
  const int64_t hidden = whh.dim() == 2 ? whh.size(1) : 0;
  const int64_t gates = type == CellType::Lstm ? 4 : type == CellType::Gru ? 3 : 1;
  const std::string kind = type == CellType::Lstm  ? "an LSTM layer"
                           : type == CellType::Gru ? "a GRU layer"
                                                   : "an RNN layer";
  const int64_t in = layer == 0 ? inputWidth : model.model.layers.back().hiddenSize;
  if (hidden == 0) {
    throw InteropError("'" + file + "': '" + parts.rnn + "weight_hh" + suffix + "' has shape " +
                       shapeText(whh.sizes()) + "; " + kind + " needs units");
  }
  expectShape(whh, parts.rnn + "weight_hh" + suffix, {gates * hidden, hidden}, file,
              kind + " of " + std::to_string(hidden) + " units");
  expectShape(wih, parts.rnn + "weight_ih" + suffix, {gates * hidden, in}, file,
              kind + " of " + std::to_string(hidden) + " units reading " + std::to_string(in));
  torch::Tensor bias = torch::zeros({gates * hidden});
  torch::Tensor recurrentBias = torch::zeros({gates * hidden});
  for (const std::string which : {"bias_ih", "bias_hh"}) {
    if (const auto* b = findTensor(tensors, parts.rnn + which + suffix)) {
      expectShape(*b, parts.rnn + which + suffix, {gates * hidden}, file, kind);
      if (which == "bias_hh" && type == CellType::Gru) {
        recurrentBias = *b;
      } else {
        bias = bias + *b;
      }
      used.insert(parts.rnn + which + suffix);
    }
  }
  const std::string prefix = "layer" + std::to_string(layer + 1) + ".";
  LayerConfig config;
  config.type = type;
  config.hiddenSize = hidden;
  if (type == CellType::Lstm) {
    model.weights.emplace_back(prefix + "W_x", lstmGateOrder(wih));
    model.weights.emplace_back(prefix + "b", lstmGateOrder(bias));
    model.weights.emplace_back(prefix + "W_h", lstmGateOrder(whh).reshape({4, hidden, hidden}));
  } else if (type == CellType::Gru) {
    // r's and z's recurrent biases join their input biases; n's stays inside the product.
    const auto rz = recurrentBias.narrow(0, 0, 2 * hidden);
    const auto foldedBias =
        torch::cat({bias.narrow(0, 0, 2 * hidden) + rz, bias.narrow(0, 2 * hidden, hidden)});
    model.weights.emplace_back(prefix + "W_x", gruGateOrder(wih));
    model.weights.emplace_back(prefix + "b", gruGateOrder(foldedBias));
    model.weights.emplace_back(
        prefix + "W_zr", gruGateOrder(whh).narrow(0, 0, 2 * hidden).reshape({2, hidden, hidden}));
    model.weights.emplace_back(prefix + "W_h",
                               whh.narrow(0, 2 * hidden, hidden).reshape({1, hidden, hidden}));
    model.weights.emplace_back(prefix + "b_hh", recurrentBias.narrow(0, 2 * hidden, hidden));
    config.resetAfter = true;
  } else {
    model.weights.emplace_back(prefix + "W_hx", wih);
    model.weights.emplace_back(prefix + "b", bias);
    model.weights.emplace_back(prefix + "W_hh", whh.reshape({1, hidden, hidden}));
  }
  model.model.layers.push_back(config);
}

Vocabulary requestedVocabulary(const ImportRequest& request) {
  if (request.level == InputLevel::Byte) return Vocabulary::bytes();
  if (!request.vocabularyFile.empty())
    return vocabularyFromSymbolFile(request.vocabularyFile, request.level);
  if (!request.corpusFile.empty())
    return vocabularyFromCorpusOrder(request.corpusFile, request.level);
  throw InteropError("'" + request.file +
                     "' carries no vocabulary: give its symbols (a file of "
                     "one symbol a line) or the corpus it was trained on");
}

ImportedModel fromPyTorch(const NamedTensors& tensors, const ImportRequest& request) {
  const PyTorchParts parts = findParts(tensors, request);
  const std::string& file = request.file;
  for (const auto& [name, tensor] : tensors) {
    if (name.find("_reverse") != std::string::npos && name.rfind(parts.rnn, 0) == 0) {
      throw InteropError("'" + file + "': '" + name + "' is of a bidirectional layer; a " +
                         "language model reads left to right only");
    }
    if (name.rfind(parts.rnn + "weight_hr_l", 0) == 0) {
      throw InteropError("'" + file + "': '" + name + "' is an LSTM projection (proj_size), " +
                         "which the workbench's LSTM has not");
    }
  }
  const torch::Tensor first = need(tensors, parts.rnn + "weight_ih_l0", file);
  const torch::Tensor firstHh = need(tensors, parts.rnn + "weight_hh_l0", file);
  const int gates = gatesOf(first, firstHh, parts.rnn, file);
  ImportedModel model;
  model.vocabulary = requestedVocabulary(request);
  std::set<std::string> used = {parts.embedding, parts.decoderWeight, parts.decoderBias};
  const auto& embedding = need(tensors, parts.embedding, file);
  const auto& decoder = need(tensors, parts.decoderWeight, file);
  if (embedding.dim() != 2 || decoder.dim() != 2) {
    const bool embeddingBad = embedding.dim() != 2;
    throw InteropError("'" + file + "': '" +
                       (embeddingBad ? parts.embedding : parts.decoderWeight) + "' has shape " +
                       shapeText((embeddingBad ? embedding : decoder).sizes()) + "; the " +
                       (embeddingBad ? "embedding" : "decoder") + " is a matrix");
  }
  if (embedding.size(0) != model.vocabulary.size() || decoder.size(0) != model.vocabulary.size()) {
    throw InteropError(
        "the vocabulary has " + std::to_string(model.vocabulary.size()) + " symbols; '" + file +
        "' has " + std::to_string(embedding.size(0)) + " embedding rows (" + parts.embedding +
        ") and " + std::to_string(decoder.size(0)) + " decoder rows (" + parts.decoderWeight + ")");
  }
  model.model.input.level = model.vocabulary.level();
  model.model.input.embeddingSize = embedding.size(1);
  model.weights.emplace_back("input.embedding", embedding);
  int layers = 0;
  while (findTensor(tensors, parts.rnn + "weight_ih_l" + std::to_string(layers))) {
    mapLayer(tensors, parts, layers, cellOfGates(gates), embedding.size(1), file, model, used);
    ++layers;
  }
  const int64_t top = model.model.layers.back().hiddenSize;
  expectShape(decoder, parts.decoderWeight, {model.vocabulary.size(), top}, file,
              "a decoder of " + std::to_string(top) + " units");
  model.weights.emplace_back("output.W", decoder);
  if (const auto* bias = findTensor(tensors, parts.decoderBias)) {
    expectShape(*bias, parts.decoderBias, {model.vocabulary.size()}, file, "the decoder's bias");
    model.weights.emplace_back("output.b", *bias);
  } else {
    model.weights.emplace_back("output.b", torch::zeros({decoder.size(0)}));
  }
  std::vector<std::string> unplaced;
  for (const auto& entry : tensors) {
    if (!used.count(entry.first)) unplaced.push_back(entry.first);
  }
  if (!unplaced.empty()) {
    throw InteropError("'" + file + "': cannot place " + joined(unplaced) + " in an embedding, " +
                       kindOfGates(gates) + " and decoder model");
  }
  model.description = std::string("PyTorch ") + kindOfGates(gates) + ", " + std::to_string(layers) +
                      (layers == 1 ? " layer" : " layers") + " of " +
                      std::to_string(firstHh.size(1)) + ", embedding " +
                      std::to_string(embedding.size(1)) + ", vocabulary " +
                      groupedInteger(model.vocabulary.size());
  return model;
}

ImportedModel fromExport(const FileContent& content, const std::string& file) {
  ExportedDescription description = readExportDescription(content.description, file);
  ImportedModel model;
  model.model = description.model;
  // The file holds the eval form: normalised weights arrive folded, so they stay so.
  for (auto& layer : model.model.layers) layer.weightNorm = false;
  model.vocabulary = std::move(description.vocabulary);
  model.weights = content.tensors;
  model.description = "a model mrnn export wrote";
  return model;
}

}  // namespace

ImportedModel readModelFile(const ImportRequest& request) {
  const FileContent content = readFileContent(request.file);
  for (const auto& [name, tensor] : content.tensors) {
    if (tensor.is_floating_point() && !torch::isfinite(tensor).all().item<bool>()) {
      throw InteropError("'" + request.file + "': weight '" + name + "' holds NaN or infinity");
    }
  }
  ImportedModel model = content.description.empty() ? fromPyTorch(content.tensors, request)
                                                    : fromExport(content, request.file);
  for (auto& entry : model.weights) {
    entry.second = entry.second.to(torch::kFloat32).contiguous();
  }
  return model;
}

}  // namespace mrnn::engine
