#include "widgets/tool_bar_rows.h"

#include <QHBoxLayout>
#include <QResizeEvent>
#include <QToolBar>
#include <QVBoxLayout>

namespace mrnn::widgets {

ToolBarRows::ToolBarRows(QWidget* parent) : QWidget(parent) {
  layout_ = new QVBoxLayout(this);
  layout_->setContentsMargins(0, 0, 0, 0);
  layout_->setSpacing(0);
}

QToolBar* ToolBarRows::addBar(const QString& objectName) {
  auto* bar = new QToolBar(this);
  bar->setObjectName(objectName);
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->setIconSize(QSize(16, 16));
  bars_.append(bar);
  arrange(width());
  return bar;
}

void ToolBarRows::arrange(int width) {
  // Greedy: each bar goes on the current row while the row's full widths fit.
  QList<QList<QToolBar*>> rows;
  int used = 0;
  for (QToolBar* bar : bars_) {
    const int wanted = bar->sizeHint().width();
    if (rows.isEmpty() || used + wanted > width) {
      rows.append(QList<QToolBar*>());
      used = 0;
    }
    rows.last().append(bar);
    used += wanted;
  }
  if (rows == rows_) return;
  rows_ = rows;
  while (QLayoutItem* item = layout_->takeAt(0)) {
    if (QLayout* row = item->layout()) {
      while (QLayoutItem* inner = row->takeAt(0)) delete inner;  // the bars stay
    }
    delete item;
  }
  for (const auto& row : rows_) {
    auto* line = new QHBoxLayout;
    line->setContentsMargins(0, 0, 0, 0);
    line->setSpacing(0);
    for (QToolBar* bar : row) line->addWidget(bar);
    line->addStretch(1);
    layout_->addLayout(line);
  }
}

void ToolBarRows::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  arrange(event->size().width());
}

}  // namespace mrnn::widgets
