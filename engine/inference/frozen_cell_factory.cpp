#include "engine/inference/frozen_cell_factory.h"

#include <torch/torch.h>

#include <set>
#include <string>

#include "engine/inference/frozen_gru_cell.h"
#include "engine/inference/frozen_lstm_cell.h"
#include "engine/inference/frozen_major_minor_lstm_cell.h"
#include "engine/inference/frozen_mgru_cell.h"
#include "engine/inference/frozen_milstm_cell.h"
#include "engine/inference/frozen_mlstm_cell.h"
#include "engine/inference/frozen_mogrifier_cell.h"
#include "engine/inference/frozen_mrnn_cell.h"
#include "engine/inference/frozen_rnn_cell.h"
#include "engine/inference/frozen_tmgru_cell.h"
#include "engine/inference/frozen_tmlstm_cell.h"

namespace mrnn::engine {
namespace {

FrozenMatrix toFrozen(const torch::Tensor& tensor) {
  const auto values = tensor.detach().to(torch::kFloat).contiguous();
  FrozenMatrix matrix;
  matrix.cols = values.dim() == 0 ? 1 : values.size(values.dim() - 1);
  matrix.rows = matrix.cols == 0 ? 0 : values.numel() / matrix.cols;
  const float* data = values.data_ptr<float>();
  matrix.values.assign(data, data + values.numel());
  return matrix;
}

}  // namespace

std::unique_ptr<FrozenCell> freezeCell(RecurrentCell& cell) {
  torch::NoGradGuard noGrad;
  FrozenWeights weights;
  // The effective recurrent weights under their own names; their raw directions and gains
  // are not copied.
  std::set<std::string> recurrent;
  for (const auto& [name, value] : cell.effectiveRecurrentWeights()) {
    weights.add(name, toFrozen(value));
    recurrent.insert(name);
    recurrent.insert(name + "_g");
  }
  for (const auto& item : cell.named_parameters(/*recurse=*/false)) {
    if (!recurrent.count(item.key())) weights.add(item.key(), toFrozen(item.value()));
  }
  const LayerConfig& config = cell.config();
  const int64_t in = cell.inputSize();
  switch (config.type) {
    case CellType::Rnn:
      return std::make_unique<FrozenRnnCell>(config, in, weights);
    case CellType::Mrnn:
      return std::make_unique<FrozenMrnnCell>(config, in, weights);
    case CellType::Lstm:
      return std::make_unique<FrozenLstmCell>(config, in, weights);
    case CellType::Mlstm:
      return std::make_unique<FrozenMlstmCell>(config, in, weights);
    case CellType::Tmlstm:
      return std::make_unique<FrozenTmlstmCell>(config, in, weights);
    case CellType::Gru:
      return std::make_unique<FrozenGruCell>(config, in, weights);
    case CellType::Mgru:
      return std::make_unique<FrozenMgruCell>(config, in, weights);
    case CellType::Tmgru:
      return std::make_unique<FrozenTmgruCell>(config, in, weights);
    case CellType::Mogrifier:
      return std::make_unique<FrozenMogrifierCell>(config, in, weights);
    case CellType::Mmlstm:
      return std::make_unique<FrozenMajorMinorLstmCell>(config, in, weights);
    case CellType::Milstm:
      return std::make_unique<FrozenMilstmCell>(config, in, weights);
  }
  throw std::invalid_argument("frozen copy: unknown cell type");
}

}  // namespace mrnn::engine
