#include "widgets/composer/cell_catalogue.h"

#include <array>

#include "engine/config/parameter_count.h"

namespace mrnn::widgets {
namespace {

using engine::CellType;

// The GRU's candidate as eq. 20 of docs/cells.md has it; reset_after changes this line only.
QString gruCandidate() {
  return QStringLiteral("j = tanh(U_h x + W_h(r ⊙ hₜ₋₁) + b_h)");
}

// Transcribed from docs/cells.md (which cites the papers' equation numbers).
const std::array<CellInfo, 11>& catalogue() {
  static const std::array<CellInfo, 11> table{{
      {CellType::Rnn, QStringLiteral("RNN"), QStringLiteral("hₜ = tanh(W_hx x + W_hh hₜ₋₁ + b)")},
      {CellType::Mrnn, QStringLiteral("mRNN"),
       QStringLiteral("mₜ = (W_mx x) ⊙ (W_mh hₜ₋₁)\n"
                      "hₜ = tanh(W_hm mₜ + W_hx x + b)\n"
                      "m: the factor state, width F")},
      {CellType::Lstm, QStringLiteral("LSTM"),
       QStringLiteral("[i f o j] = W_x x + W_h hₜ₋₁ + b\n"
                      "i, f, o = σ(·)    j = tanh(·)\n"
                      "cₜ = f ⊙ cₜ₋₁ + i ⊙ j\n"
                      "hₜ = o ⊙ tanh(cₜ)\n"
                      "gate inside: hₜ = tanh(o ⊙ cₜ)")},
      {CellType::Mlstm, QStringLiteral("mLSTM"),
       QStringLiteral("mₜ = (W_mx x) ⊙ (W_mh hₜ₋₁)\n"
                      "[i f o j] = W_x x + W_m mₜ + b\n"
                      "i, f, o = σ(·)    j = tanh(·)\n"
                      "cₜ = f ⊙ cₜ₋₁ + i ⊙ j\n"
                      "hₜ = o ⊙ tanh(cₜ)\n"
                      "gate inside: hₜ = tanh(o ⊙ cₜ)")},
      {CellType::Tmlstm, QStringLiteral("true mLSTM"),
       QStringLiteral("m_g = (W_mx,g x) ⊙ (W_mh,g hₜ₋₁)\n"
                      "      for g ∈ {i, f, o, j}\n"
                      "pre_g = U_g x + V_g m_g + b_g\n"
                      "i, f, o = σ(pre)   j = tanh(pre)\n"
                      "cₜ = f ⊙ cₜ₋₁ + i ⊙ j\n"
                      "hₜ = o ⊙ tanh(cₜ)")},
      {CellType::Gru, QStringLiteral("GRU"),
       QStringLiteral("z = σ(U_z x + W_z hₜ₋₁ + b_z)\n"
                      "r = σ(U_r x + W_r hₜ₋₁ + b_r)\n") +
           gruCandidate() + QStringLiteral("\nhₜ = (1 − z) ⊙ hₜ₋₁ + z ⊙ j")},
      {CellType::Mgru, QStringLiteral("mGRU"),
       QStringLiteral("mₜ = (W_mx x) ⊙ (W_mh hₜ₋₁)\n"
                      "z = σ(U_z x + V_z mₜ + b_z)   (H)\n"
                      "r = σ(U_r x + V_r mₜ + b_r)   (M)\n"
                      "j = tanh(U_h x + V_h(r ⊙ mₜ) + b_h)\n"
                      "hₜ = (1 − z) ⊙ hₜ₋₁ + z ⊙ j")},
      {CellType::Tmgru, QStringLiteral("true mGRU"),
       QStringLiteral("m_z = (W_mx,z x) ⊙ (W_mh,z hₜ₋₁)\n"
                      "z = σ(U_z x + V_z m_z + b_z)\n"
                      "m_r = (W_mx,r x) ⊙ (W_mh,r hₜ₋₁)\n"
                      "r = σ(U_r x + V_r m_r + b_r)\n"
                      "m_h = (W_mx,h x) ⊙ (W_mh,h(r ⊙ hₜ₋₁))\n"
                      "j = tanh(U_h x + V_h m_h + b_h)\n"
                      "hₜ = (1 − z) ⊙ hₜ₋₁ + z ⊙ j")},
      {CellType::Mogrifier, QStringLiteral("Mogrifier LSTM"),
       QStringLiteral("x⁻¹ = x,   h⁰ = hₜ₋₁\n"
                      "odd i:  xⁱ = 2σ(Qⁱ hⁱ⁻¹) ⊙ xⁱ⁻²\n"
                      "even i: hⁱ = 2σ(Rⁱ xⁱ⁻¹) ⊙ hⁱ⁻²\n"
                      "for i = 1 … r, then the LSTM\n"
                      "step on the last xⁱ and hⁱ\n"
                      "rank k > 0: Qⁱ and Rⁱ of rank k")},
      {CellType::Mmlstm, QStringLiteral("Major-Minor LSTM"),
       QStringLiteral("major: LSTM of round(share · H)\n"
                      "       units, reading the layer below\n"
                      "minor: LSTM of the other units,\n"
                      "       reading the embedding (MMLM-1)\n"
                      "       or the layer below (MMLM-2)\n"
                      "hₜ = [hₜ(major), hₜ(minor)]")},
      {CellType::Milstm, QStringLiteral("MI-LSTM"),
       QStringLiteral("a = W_x x,   u = W_h hₜ₋₁\n"
                      "pre_g = α_g ⊙ a_g ⊙ u_g\n"
                      "      + β1_g ⊙ u_g + β2_g ⊙ a_g + b_g\n"
                      "      for g ∈ {i, f, o, j}\n"
                      "cₜ = f ⊙ cₜ₋₁ + i ⊙ j\n"
                      "hₜ = o ⊙ tanh(cₜ)")},
  }};
  return table;
}

QString description(CellType type) {
  return QString::fromStdString(engine::cellTypeDescription(type));
}

}  // namespace

const CellInfo& cellInfo(CellType type) {
  for (const CellInfo& info : catalogue()) {
    if (info.type == type) return info;
  }
  return catalogue()[0];  // unreachable: every cell type is in the table
}

QString cellDisplayName(CellType type) {
  return cellInfo(type).displayName;
}

QString cellEquations(CellType type) {
  return cellInfo(type).equations;
}

QString layerEquations(const engine::LayerConfig& layer) {
  QString text = cellEquations(layer.type);
  if (layer.type == CellType::Gru && layer.resetAfter) {
    // Two lines: the inspector keeps its equations narrow.
    text.replace(gruCandidate(),
                 QStringLiteral("j = tanh(U_h x + b_h\n         + r ⊙ (W_h hₜ₋₁ + b_hh))"));
  }
  return text;
}

QString cellSummary(CellType type) {
  const QString text = description(type);
  const qsizetype open = text.lastIndexOf(QStringLiteral(" ("));
  return open < 0 ? text : text.left(open);
}

QString cellPaper(CellType type) {
  const QString text = description(type);
  const qsizetype open = text.lastIndexOf(QStringLiteral(" ("));
  if (open < 0 || !text.endsWith(QLatin1Char(')'))) return QString();
  return text.mid(open + 2, text.size() - open - 3);
}

QColor cellFamilyColour(CellType type) {
  switch (type) {
    case CellType::Gru:
    case CellType::Mgru:
    case CellType::Tmgru:
      return QColor(0x70, 0x48, 0xe8);
    case CellType::Rnn:
    case CellType::Mrnn:
      return QColor(0x10, 0x98, 0xad);
    default:
      return QColor(0x3b, 0x5b, 0xdb);
  }
}

QString cellToolTip(CellType type) {
  return QStringLiteral(
             "<b>%1</b> (<code>%2</code>)<br>%3<br><i>%4</i><br>Parameters: %5<br>"
             "<small>I input width, H hidden size, M m size</small>")
      .arg(cellDisplayName(type), QString::fromStdString(engine::cellTypeName(type)),
           cellSummary(type), cellPaper(type),
           QString::fromStdString(engine::cellParameterFormula(type)).toHtmlEscaped());
}

QString inputEquations(const engine::InputConfig& input) {
  if (input.embeddingSize > 0) {
    return QStringLiteral("x = E[token]\nE: V × %1, uniform ±0.1").arg(input.embeddingSize);
  }
  return QStringLiteral("x = one-hot(token), width V");
}

QString outputEquations(const engine::OutputConfig& output) {
  if (output.kind == engine::OutputKind::Linear) {
    const QString outputs = output.size == 1 ? QStringLiteral("1 real output")
                                             : QStringLiteral("%1 real outputs").arg(output.size);
    return QStringLiteral("y = W h + b, %1\nloss ½ (y − target)²").arg(outputs);
  }
  if (output.kind == engine::OutputKind::Softmax) {
    return output.tieEmbeddings ? QStringLiteral("p = softmax(E h + b)\nE: the input embedding")
                                : QStringLiteral("p = softmax(W h + b)");
  }
  return QStringLiteral(
             "π = softmax(W_prior h)\n"
             "g_k = tanh(W_latent,k h + b)\n"
             "p = Σ_k π_k softmax(W_o g_k + b_o)\n"
             "K = %1 components%2")
      .arg(output.mixtures)
      .arg(output.tieEmbeddings ? QStringLiteral("\nW_o: the input embedding") : QString());
}

QString equationNotation() {
  return QStringLiteral(
      "x the layer's input (width I), hₜ₋₁ the previous state (width H), m an intermediate "
      "state (width M), σ the logistic sigmoid, ⊙ the elementwise product.");
}

}  // namespace mrnn::widgets
