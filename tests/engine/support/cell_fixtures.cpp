#include "cell_fixtures.h"

#include <torch/torch.h>

#include "engine/models/cell_factory.h"

namespace mrnn::test {

using engine::CellType;
using engine::LayerConfig;

std::vector<CellCase> allCellCases() {
  auto make = [](CellType type) {
    LayerConfig layer;
    layer.type = type;
    layer.hiddenSize = 4;
    layer.mSize = 3;
    return layer;
  };
  std::vector<CellCase> cases;
  for (CellType type : engine::allCellTypes()) {
    LayerConfig layer = make(type);
    if (type == CellType::Mogrifier) {
      layer.rounds = 5;
      layer.rank = 2;
    }
    if (type == CellType::Mmlstm) {
      layer.hiddenSize = 7;
      layer.majorShare = 0.6;  // 4 major + 3 minor units
    }
    cases.push_back({engine::cellTypeName(type), layer});
  }
  LayerConfig inside = make(CellType::Lstm);
  inside.outputGate = engine::OutputGate::Inside;
  cases.push_back({"lstm output gate inside", inside});
  LayerConfig mlstmInside = make(CellType::Mlstm);
  mlstmInside.outputGate = engine::OutputGate::Inside;
  cases.push_back({"mlstm output gate inside", mlstmInside});
  LayerConfig fullRank = make(CellType::Mogrifier);
  fullRank.rounds = 4;
  fullRank.rank = 0;
  cases.push_back({"mogrifier r=4 full rank", fullRank});
  LayerConfig noZigzag = make(CellType::Mogrifier);
  noZigzag.rounds = 5;
  noZigzag.rank = 2;
  noZigzag.zigzag = false;
  cases.push_back({"mogrifier no zigzag", noZigzag});
  LayerConfig zeroRounds = make(CellType::Mogrifier);
  zeroRounds.rounds = 0;
  cases.push_back({"mogrifier r=0", zeroRounds});
  LayerConfig below = make(CellType::Mmlstm);
  below.hiddenSize = 7;
  below.majorShare = 0.6;
  below.minorInput = engine::MinorInput::Below;
  cases.push_back({"mmlstm minor fed from below (MMLM-2)", below});
  LayerConfig resetAfter = make(CellType::Gru);
  resetAfter.resetAfter = true;
  cases.push_back({"gru reset after (PyTorch's form)", resetAfter});
  return cases;
}

std::shared_ptr<engine::RecurrentCell> makeRandomCell(const LayerConfig& layer, uint64_t seed) {
  auto cell = engine::makeCell(layer, kInput, kEmbedding, engine::InitConfig{});
  cell->to(torch::kDouble);
  torch::manual_seed(seed);
  torch::NoGradGuard noGrad;
  for (auto& parameter : cell->parameters()) parameter.normal_(0.0, 0.5);
  return cell;
}

Weights weightsOf(const engine::RecurrentCell& cell) {
  Weights weights;
  for (const auto& item : cell.named_parameters()) {
    const auto t = item.value().detach().contiguous().to(torch::kDouble);
    Mat m;
    m.cols = t.dim() == 1 ? t.size(0) : t.size(t.dim() - 1);
    m.rows = t.numel() / m.cols;
    m.values.assign(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
    weights[item.key()] = m;
  }
  return weights;
}

Vec rowOf(const torch::Tensor& matrix, int64_t row) {
  const auto r = matrix[row].detach().contiguous().to(torch::kDouble);
  return Vec(r.data_ptr<double>(), r.data_ptr<double>() + r.numel());
}

torch::Tensor randomState(const engine::RecurrentCell& cell, int64_t batch, uint64_t seed,
                          engine::CellState& state) {
  torch::manual_seed(seed);
  state = cell.initialState(batch, torch::TensorOptions().dtype(torch::kDouble));
  for (auto& part : state.parts) part.normal_(0.0, 0.5);
  return state.h();
}

}  // namespace mrnn::test
