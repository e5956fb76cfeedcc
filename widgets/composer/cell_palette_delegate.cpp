#include "widgets/composer/cell_palette_delegate.h"

#include <QApplication>
#include <QPainter>

#include "engine/config/cell_type.h"
#include "widgets/composer/cell_catalogue.h"
#include "widgets/composer/cell_palette.h"

namespace mrnn::widgets {
namespace {

constexpr int kPadding = 8;

QFont smaller(const QFont& base) {
  QFont font = base;
  font.setPointSizeF(base.pointSizeF() * 0.88);
  return font;
}

}  // namespace

void CellPaletteDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                const QModelIndex& index) const {
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  opt.text.clear();
  const QWidget* widget = option.widget;
  QStyle* style = widget ? widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

  painter->save();
  painter->setRenderHint(QPainter::Antialiasing);
  const bool selected = option.state & QStyle::State_Selected;
  const QPalette& palette = option.palette;
  const QColor text =
      selected ? palette.color(QPalette::HighlightedText) : palette.color(QPalette::Text);
  QColor muted = text;
  muted.setAlphaF(0.65);
  const auto type = static_cast<engine::CellType>(index.data(CellPalette::kCellTypeRole).toInt());

  QRect area = option.rect.adjusted(kPadding + 10, kPadding / 2 + 1, -kPadding, -kPadding / 2);
  painter->setPen(Qt::NoPen);
  painter->setBrush(cellFamilyColour(type));
  painter->drawEllipse(QPointF(option.rect.left() + kPadding + 2,
                               area.top() + QFontMetrics(option.font).height() / 2.0 + 1),
                       4, 4);

  QFont bold = option.font;
  bold.setBold(true);
  const QFontMetrics boldMetrics(bold);
  const QString name = index.data(Qt::DisplayRole).toString();
  painter->setFont(bold);
  painter->setPen(text);
  painter->drawText(area, Qt::AlignLeft | Qt::AlignTop, name);

  const QFont small = smaller(option.font);
  const QFontMetrics smallMetrics(small);
  painter->setFont(small);
  painter->setPen(muted);
  const QString yaml = index.data(CellPalette::kYamlNameRole).toString();
  painter->drawText(area, Qt::AlignRight | Qt::AlignTop, yaml);

  QRect line = area;
  line.setTop(area.top() + boldMetrics.height() + 1);
  const QString summary = index.data(CellPalette::kSummaryRole).toString();
  painter->setPen(text);
  painter->drawText(line, Qt::AlignLeft | Qt::AlignTop,
                    smallMetrics.elidedText(summary, Qt::ElideRight, line.width()));
  line.setTop(line.top() + smallMetrics.height());
  QFont italic = small;
  italic.setItalic(true);
  painter->setFont(italic);
  painter->setPen(muted);
  const QString paper = index.data(CellPalette::kPaperRole).toString();
  painter->drawText(line, Qt::AlignLeft | Qt::AlignTop,
                    QFontMetrics(italic).elidedText(paper, Qt::ElideRight, line.width()));
  painter->restore();
}

QSize CellPaletteDelegate::sizeHint(const QStyleOptionViewItem& option,
                                    const QModelIndex& /*index*/) const {
  QFont bold = option.font;
  bold.setBold(true);
  const int height = QFontMetrics(bold).height() + 1 +
                     2 * QFontMetrics(smaller(option.font)).height() + kPadding + 2;
  return {200, height};
}

}  // namespace mrnn::widgets
