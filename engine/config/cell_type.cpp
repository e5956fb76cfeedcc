#include "engine/config/cell_type.h"

#include <array>

namespace mrnn::engine {
namespace {

struct CellTypeInfo {
  CellType type;
  const char* name;
  const char* description;
};

constexpr std::array<CellTypeInfo, 11> kCellTypes{{
    {CellType::Rnn, "rnn", "Elman tanh RNN (Sutskever et al. 2011, eq. 1)"},
    {CellType::Mrnn, "mrnn", "Multiplicative RNN (Sutskever et al. 2011, eqs. 7-8)"},
    {CellType::Lstm, "lstm", "LSTM (Krause et al. 2016, eqs. 11-16)"},
    {CellType::Mlstm, "mlstm", "Multiplicative LSTM, shared m (Krause et al. 2016, eqs. 17-21)"},
    {CellType::Tmlstm, "tmlstm", "True mLSTM, one m per gate (Maupome & Meurs, eqs. 14-17)"},
    {CellType::Gru, "gru", "GRU (Maupome & Meurs, eqs. 18-21)"},
    {CellType::Mgru, "mgru", "mGRU, shared m (Maupome & Meurs, eqs. 25-27)"},
    {CellType::Tmgru, "tmgru", "True mGRU, one m per gate (Maupome & Meurs, eqs. 22-24)"},
    {CellType::Mogrifier, "mogrifier", "Mogrifier LSTM (Melis et al. 2019, eqs. 1-2)"},
    {CellType::Mmlstm, "mmlstm", "Major-Minor LSTM (Shuang et al. 2020, eqs. 21-22)"},
    {CellType::Milstm, "milstm", "Multiplicative-integration LSTM (Wu et al. 2016)"},
}};

const CellTypeInfo& info(CellType type) {
  for (const auto& entry : kCellTypes) {
    if (entry.type == type) return entry;
  }
  return kCellTypes[0];  // unreachable: every enumerator is in the table
}

}  // namespace

const std::vector<CellType>& allCellTypes() {
  static const std::vector<CellType> types = [] {
    std::vector<CellType> out;
    for (const auto& entry : kCellTypes) out.push_back(entry.type);
    return out;
  }();
  return types;
}

std::string cellTypeName(CellType type) {
  return info(type).name;
}

std::string cellTypeDescription(CellType type) {
  return info(type).description;
}

std::optional<CellType> cellTypeFromName(const std::string& name) {
  for (const auto& entry : kCellTypes) {
    if (name == entry.name) return entry.type;
  }
  return std::nullopt;
}

bool isLstmFamily(CellType type) {
  switch (type) {
    case CellType::Lstm:
    case CellType::Mlstm:
    case CellType::Tmlstm:
    case CellType::Mogrifier:
    case CellType::Mmlstm:
    case CellType::Milstm:
      return true;
    default:
      return false;
  }
}

bool hasIntermediateState(CellType type) {
  switch (type) {
    case CellType::Mrnn:
    case CellType::Mlstm:
    case CellType::Tmlstm:
    case CellType::Mgru:
    case CellType::Tmgru:
      return true;
    default:
      return false;
  }
}

}  // namespace mrnn::engine
