#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mrnn::engine {

// Every recurrent cell of the zoo. The YAML name of each is given by cellTypeName().
enum class CellType {
  Rnn,        // Elman tanh RNN (Sutskever eq. 1)
  Mrnn,       // multiplicative RNN (Sutskever eqs. 7-8)
  Lstm,       // LSTM (Krause eqs. 11-16)
  Mlstm,      // multiplicative LSTM (Krause eqs. 17-21)
  Tmlstm,     // true mLSTM (Maupome & Meurs eqs. 14-17)
  Gru,        // GRU (Maupome & Meurs eqs. 18-21)
  Mgru,       // mGRU, shared intermediate state (Maupome & Meurs eqs. 25-27)
  Tmgru,      // true mGRU (Maupome & Meurs eqs. 22-24)
  Mogrifier,  // Mogrifier LSTM (Melis eqs. 1-2)
  Mmlstm,     // Major-Minor LSTM (Shuang eqs. 21-22)
  Milstm,     // multiplicative-integration LSTM (Wu et al. 2016)
};

const std::vector<CellType>& allCellTypes();
std::string cellTypeName(CellType type);
std::optional<CellType> cellTypeFromName(const std::string& name);
// One line for tooltips and tables, naming the paper and equations.
std::string cellTypeDescription(CellType type);

// True for the cells built on the LSTM memory cell (they have a forget gate and an
// output gate whose position can be chosen).
bool isLstmFamily(CellType type);
// True for the cells with an intermediate state m of settable size.
bool hasIntermediateState(CellType type);

}  // namespace mrnn::engine
