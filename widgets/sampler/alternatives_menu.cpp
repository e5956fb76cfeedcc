#include "widgets/sampler/alternatives_menu.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPixmap>
#include <QStyle>

#include "widgets/sampler/probability_scale.h"
#include "widgets/visible_symbol.h"

namespace mrnn::widgets {
namespace {

// A swatch of the probability's colour, as the symbol would be drawn in the text.
QIcon swatch(double probability) {
  QPixmap pixmap(14, 14);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setPen(QColor(0, 0, 0, 70));
  painter.setBrush(ProbabilityScale::background(probability));
  painter.drawRect(1, 1, 11, 11);
  return QIcon(pixmap);
}

}  // namespace

AlternativesMenu::AlternativesMenu(const engine::GeneratedSymbol& symbol, int position,
                                   bool canBranch, QWidget* parent)
    : QMenu(parent), position_(position) {
  setObjectName(QStringLiteral("alternativesMenu"));
  setAttribute(Qt::WA_DeleteOnClose);
  setToolTipsVisible(true);
  const QString title = canBranch
                            ? tr("Position %1: continue with…").arg(position + 1)
                            : tr("Position %1 (wait for generation to end)").arg(position + 1);
  addSection(title);
  // Menus size themselves by their entries; the title should not be cut. Styles may draw a
  // section title bold and indent it past the icon column, so leave room for both.
  QFont titleFont = font();
  titleFont.setBold(true);
  const int indent = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this) +
                     2 * style()->pixelMetric(QStyle::PM_MenuHMargin, nullptr, this) +
                     2 * style()->pixelMetric(QStyle::PM_MenuPanelWidth, nullptr, this);
  setMinimumWidth(QFontMetrics(titleFont).horizontalAdvance(title) + indent +
                  4 * fontMetrics().averageCharWidth());

  auto addEntry = [&](qint64 id, const std::string& text, double probability) {
    // The tab puts the probability in the menu's right-aligned column.
    // '&' would mark a keyboard accelerator in a menu; doubled it is shown as itself.
    QString label = visibleSymbol(text);
    label.replace(QLatin1Char('&'), QStringLiteral("&&"));
    QAction* action = addAction(swatch(probability),
                                label + QLatin1Char('\t') + ProbabilityScale::percent(probability));
    action->setData(id);
    action->setEnabled(canBranch);
    if (id == symbol.id) {
      // The symbol that was generated here stands out in bold.
      QFont bold = action->font();
      bold.setBold(true);
      action->setFont(bold);
    }
    action->setToolTip(id == symbol.id ? tr("The symbol generated here; choose it to draw "
                                            "the rest of the completion again")
                                       : tr("Put this symbol here and continue the "
                                            "completion from it"));
    connect(action, &QAction::triggered, this,
            [this, id] { Q_EMIT alternativeChosen(position_, id); });
    alternatives_.append(action);
  };

  bool chosenListed = false;
  for (const auto& alternative : symbol.alternatives) {
    addEntry(alternative.id, alternative.symbol, alternative.probability);
    chosenListed = chosenListed || alternative.id == symbol.id;
  }
  if (!chosenListed) {
    // Sampling may draw a symbol outside the top few; it is listed after them.
    addSeparator();
    addEntry(symbol.id, symbol.text, symbol.probability);
  }
}

}  // namespace mrnn::widgets
