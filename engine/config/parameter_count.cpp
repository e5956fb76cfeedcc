#include "engine/config/parameter_count.h"

#include <sstream>
#include <stdexcept>

namespace mrnn::engine {
namespace {

// Rows of the recurrent matrices: weight normalisation adds one gain per row.
int64_t recurrentRows(const LayerConfig& layer) {
  const int64_t h = layer.hiddenSize;
  const int64_t m = layer.intermediateSize();
  switch (layer.type) {
    case CellType::Rnn:
      return h;
    case CellType::Mrnn:
      return m + h;
    case CellType::Lstm:
    case CellType::Mogrifier:
    case CellType::Milstm:
      return 4 * h;
    case CellType::Mlstm:
      return m + 4 * h;
    case CellType::Tmlstm:
      return 4 * m + 4 * h;
    case CellType::Gru:
      return 3 * h;
    case CellType::Mgru:
      return m + (h + m) + h;
    case CellType::Tmgru:
      return 3 * m + 3 * h;
    case CellType::Mmlstm:
      return 4 * layer.majorSize() + 4 * layer.minorSize();
  }
  return 0;
}

int64_t mogrifierExtra(const LayerConfig& layer, int64_t input) {
  const int64_t h = layer.hiddenSize;
  const int64_t qCount = (layer.rounds + 1) / 2;  // odd rounds modulate x
  const int64_t rCount = layer.rounds / 2;        // even rounds modulate h
  const int64_t perMatrix = layer.rank > 0 ? layer.rank * (input + h) : input * h;
  return (qCount + rCount) * perMatrix;
}

}  // namespace

int64_t cellRecurrentWeightCount(const LayerConfig& layer) {
  const int64_t h = layer.hiddenSize;
  const int64_t m = layer.intermediateSize();
  switch (layer.type) {
    case CellType::Rnn:
      return h * h;
    case CellType::Mrnn:
      return m * h + h * m;
    case CellType::Lstm:
    case CellType::Mogrifier:
    case CellType::Milstm:
      return 4 * h * h;
    case CellType::Mlstm:
      return m * h + 4 * h * m;
    case CellType::Tmlstm:
      return 4 * m * h + 4 * h * m;
    case CellType::Gru:
      return 3 * h * h;
    case CellType::Mgru:
      return m * h + (2 * h + m) * m;
    case CellType::Tmgru:
      return 3 * m * h + 3 * h * m;
    case CellType::Mmlstm: {
      const int64_t major = layer.majorSize();
      const int64_t minor = layer.minorSize();
      return 4 * major * major + 4 * minor * minor;
    }
  }
  return 0;
}

int64_t cellParameterCount(const LayerConfig& layer, int64_t input, int64_t embeddingWidth) {
  const int64_t h = layer.hiddenSize;
  const int64_t m = layer.intermediateSize();
  const int64_t gains = layer.weightNorm ? recurrentRows(layer) : 0;
  const int64_t recurrent = cellRecurrentWeightCount(layer);
  int64_t inputSide = 0;  // input matrices and biases
  switch (layer.type) {
    case CellType::Rnn:
      inputSide = h * input + h;
      break;
    case CellType::Mrnn:
      inputSide = m * input + h * input + (layer.bias ? h : 0);
      break;
    case CellType::Lstm:
      inputSide = 4 * h * input + 4 * h;
      break;
    case CellType::Mlstm:
      inputSide = m * input + 4 * h * input + 4 * h;
      break;
    case CellType::Tmlstm:
      inputSide = 4 * m * input + 4 * h * input + 4 * h;
      break;
    case CellType::Gru:
      inputSide = 3 * h * input + 3 * h + (layer.resetAfter ? h : 0);  // + b_hh
      break;
    case CellType::Mgru:
      inputSide = m * input + (2 * h + m) * input + (2 * h + m);
      break;
    case CellType::Tmgru:
      inputSide = 3 * m * input + 3 * h * input + 3 * h;
      break;
    case CellType::Mogrifier:
      inputSide = 4 * h * input + 4 * h + mogrifierExtra(layer, input);
      break;
    case CellType::Mmlstm: {
      const int64_t major = layer.majorSize();
      const int64_t minor = layer.minorSize();
      const int64_t minorInput = layer.minorInput == MinorInput::Below ? input : embeddingWidth;
      inputSide = 4 * major * input + 4 * major;
      if (minor > 0) inputSide += 4 * minor * minorInput + 4 * minor;
      break;
    }
    case CellType::Milstm:
      inputSide = 4 * h * input + 4 * h + 3 * 4 * h;  // + alpha, beta1, beta2
      break;
  }
  return inputSide + recurrent + gains;
}

std::string cellParameterFormula(CellType type) {
  switch (type) {
    case CellType::Rnn:
      return "HI + H^2 + H";
    case CellType::Mrnn:
      return "MI + HI + 2MH   (M = factor size F; + H with bias: true)";
    case CellType::Lstm:
      return "4HI + 4H^2 + 4H";
    case CellType::Mlstm:
      return "MI + 4HI + MH + 4HM + 4H";
    case CellType::Tmlstm:
      return "4MI + 4HI + 4MH + 4HM + 4H";
    case CellType::Gru:
      return "3HI + 3H^2 + 3H   (+ H with reset_after: true)";
    case CellType::Mgru:
      return "MI + (2H+M)I + MH + (2H+M)M + (2H+M)";
    case CellType::Tmgru:
      return "3MI + 3HI + 3MH + 3HM + 3H";
    case CellType::Mogrifier:
      return "4HI + 4H^2 + 4H + r * (k(I+H) if k > 0 else IH)";
    case CellType::Mmlstm:
      return "LSTM(I, Hmajor) + LSTM(Iminor, Hminor), Hmajor = round(share * H)";
    case CellType::Milstm:
      return "4HI + 4H^2 + 4H + 12H   (alpha, beta1, beta2)";
  }
  return "";
}

ModelSummary summarizeModel(const ModelConfig& config, int64_t vocab) {
  if (vocab <= 0) throw std::invalid_argument("summarizeModel needs a known vocabulary size");
  ModelSummary summary;
  const int64_t embedding = config.input.embeddingSize;
  const int64_t inputWidth = config.inputWidth(vocab);
  {
    SummaryRow row{
        "input",
        embedding > 0 ? "embedding" : "one-hot",
        inputLevelName(config.input.level) + ", vocabulary " + std::to_string(vocab) +
            (config.input.values > 0 ? ", " + std::to_string(config.input.values) + " real values"
                                     : std::string()),
        vocab,
        inputWidth,
        embedding > 0 ? vocab * embedding : 0};
    summary.rows.push_back(row);
  }
  int64_t width = inputWidth;
  for (size_t i = 0; i < config.layers.size(); ++i) {
    const LayerConfig& layer = config.layers[i];
    std::ostringstream detail;
    detail << "H=" << layer.hiddenSize;
    if (hasIntermediateState(layer.type)) detail << " M=" << layer.intermediateSize();
    if (layer.type == CellType::Mogrifier) {
      detail << " r=" << layer.rounds
             << " k=" << (layer.rank > 0 ? std::to_string(layer.rank) : "full");
      if (!layer.zigzag) detail << " no-zigzag";
    }
    if (layer.type == CellType::Mmlstm) {
      detail << " major=" << layer.majorSize() << " minor=" << layer.minorSize();
    }
    if (isLstmFamily(layer.type) && layer.outputGate == OutputGate::Inside) detail << " o-inside";
    if (layer.type == CellType::Gru && layer.resetAfter) detail << " reset-after";
    if (layer.weightNorm) detail << " WN";
    if (layer.weightDrop > 0) detail << " wdrop=" << layer.weightDrop;
    summary.rows.push_back({"layer " + std::to_string(i + 1), cellTypeName(layer.type),
                            detail.str(), width, layer.hiddenSize,
                            cellParameterCount(layer, width, inputWidth)});
    width = layer.hiddenSize;
  }
  {
    const bool tied = config.output.tieEmbeddings;
    SummaryRow row;
    row.block = "output";
    row.inputWidth = width;
    row.outputWidth = vocab;
    if (config.output.kind == OutputKind::Linear) {
      row.kind = "linear";
      row.detail = "squared error";
      row.outputWidth = config.output.size;
      row.parameters = width * config.output.size + config.output.size;
    } else if (config.output.kind == OutputKind::Softmax) {
      row.kind = "softmax";
      row.detail = tied ? "tied to the embedding" : "untied";
      row.parameters = tied ? vocab : width * vocab + vocab;
    } else {
      const int64_t k = config.output.mixtures;
      const int64_t latent =
          tied ? embedding : (config.output.latentSize > 0 ? config.output.latentSize : width);
      row.kind = "mos";
      row.detail = std::to_string(k) + " mixtures, latent " + std::to_string(latent) +
                   (tied ? ", tied" : ", untied");
      row.parameters =
          width * k + k * latent * (width + 1) + (tied ? vocab : latent * vocab + vocab);
    }
    summary.rows.push_back(row);
  }
  for (const auto& row : summary.rows) summary.totalParameters += row.parameters;
  return summary;
}

}  // namespace mrnn::engine
