#include "engine/models/cell_factory.h"

#include "engine/models/gru_cell.h"
#include "engine/models/lstm_cell.h"
#include "engine/models/major_minor_lstm_cell.h"
#include "engine/models/mgru_cell.h"
#include "engine/models/milstm_cell.h"
#include "engine/models/mlstm_cell.h"
#include "engine/models/mogrifier_cell.h"
#include "engine/models/mrnn_cell.h"
#include "engine/models/rnn_cell.h"
#include "engine/models/tmgru_cell.h"
#include "engine/models/tmlstm_cell.h"

namespace mrnn::engine {
namespace {

std::shared_ptr<RecurrentCell> construct(const LayerConfig& layer, int64_t in, int64_t emb) {
  switch (layer.type) {
    case CellType::Rnn:
      return std::make_shared<RnnCell>(layer, in, emb);
    case CellType::Mrnn:
      return std::make_shared<MrnnCell>(layer, in, emb);
    case CellType::Lstm:
      return std::make_shared<LstmCell>(layer, in, emb);
    case CellType::Mlstm:
      return std::make_shared<MlstmCell>(layer, in, emb);
    case CellType::Tmlstm:
      return std::make_shared<TmlstmCell>(layer, in, emb);
    case CellType::Gru:
      return std::make_shared<GruCell>(layer, in, emb);
    case CellType::Mgru:
      return std::make_shared<MgruCell>(layer, in, emb);
    case CellType::Tmgru:
      return std::make_shared<TmgruCell>(layer, in, emb);
    case CellType::Mogrifier:
      return std::make_shared<MogrifierCell>(layer, in, emb);
    case CellType::Mmlstm:
      return std::make_shared<MajorMinorLstmCell>(layer, in, emb);
    case CellType::Milstm:
      return std::make_shared<MilstmCell>(layer, in, emb);
  }
  return nullptr;
}

}  // namespace

std::shared_ptr<RecurrentCell> makeCell(const LayerConfig& layer, int64_t inputSize,
                                        int64_t embeddingSize, const InitConfig& init) {
  auto cell = construct(layer, inputSize, embeddingSize);
  cell->resetParameters(init);
  return cell;
}

}  // namespace mrnn::engine
