#include "widgets/gates/pattern_finder_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace mrnn::widgets {

namespace {

constexpr int kModelRole = Qt::UserRole + 1;
constexpr int kUnitRole = Qt::UserRole + 2;

QString mean(double value) {
  return std::isnan(value) ? QStringLiteral("\u2014") : QString::number(value, 'f', 3);
}

}  // namespace

PatternFinderView::PatternFinderView(QWidget* parent) : QWidget(parent) {
  combo_ = new QComboBox(this);
  combo_->setObjectName(QStringLiteral("patternCombo"));
  for (const Pattern pattern : {Pattern::InsideQuotes, Pattern::AfterSpace, Pattern::AfterNewline,
                                Pattern::Selection, Pattern::SelectionEverywhere}) {
    combo_->addItem(patternName(pattern), static_cast<int>(pattern));
  }
  combo_->setToolTip(
      tr("The steps a unit should be high (or low) at: inside \"quotes\", right after a space or a "
         "line break, the text selected with the mouse (in the coloured text or the text box), "
         "or every place where the selected symbols occur"));
  find_ = new QPushButton(tr("Find units"), this);
  find_->setObjectName(QStringLiteral("findUnitsButton"));
  find_->setToolTip(
      tr("Rank the units of the shown probe by how closely they follow the pattern "
         "(|Pearson r| between the unit's value and the 0/1 pattern over the steps)"));
  find_->setEnabled(false);
  list_ = new QTreeWidget(this);
  list_->setObjectName(QStringLiteral("patternResults"));
  list_->setRootIsDecorated(false);
  list_->setUniformRowHeights(true);
  list_->setHeaderLabels({tr("Model"), tr("Unit"), tr("r"), tr("Mean inside"), tr("Mean outside")});
  list_->header()->setStretchLastSection(false);
  list_->setMinimumHeight(list_->fontMetrics().lineSpacing() * 3);
  list_->headerItem()->setToolTip(2, tr("Pearson correlation with the pattern"));
  list_->headerItem()->setToolTip(3, tr("The unit's mean value where the pattern holds"));
  list_->headerItem()->setToolTip(4, tr("The unit's mean value elsewhere"));
  list_->setToolTip(tr("Click a unit to colour the text by it and outline it in the map"));
  note_ = new QLabel(this);
  note_->setObjectName(QStringLiteral("patternNote"));
  note_->setWordWrap(true);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Units that follow"), this));
  controls->addWidget(combo_, 1);
  controls->addWidget(find_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(controls);
  // The note above the list: when space runs short the list scrolls, the note stays whole.
  layout->addWidget(note_);
  layout->addWidget(list_, 1);

  connect(find_, &QPushButton::clicked, this, &PatternFinderView::findRequested);
  connect(list_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { chosen(item); });
  connect(list_, &QTreeWidget::itemActivated, this,
          [this](QTreeWidgetItem* item) { chosen(item); });
  clearResults(tr("Run the analysis, choose a pattern and press Find units."));
}

PatternFinderView::Pattern PatternFinderView::pattern() const {
  return static_cast<Pattern>(combo_->currentData().toInt());
}

void PatternFinderView::setPattern(Pattern pattern) {
  combo_->setCurrentIndex(combo_->findData(static_cast<int>(pattern)));
}

QString PatternFinderView::patternName(Pattern pattern) {
  switch (pattern) {
    case Pattern::InsideQuotes:
      return tr("inside quotes");
    case Pattern::AfterSpace:
      return tr("after a space");
    case Pattern::AfterNewline:
      return tr("after a newline");
    case Pattern::Selection:
      return tr("selected text");
    case Pattern::SelectionEverywhere:
      return tr("the selected text, everywhere");
  }
  return QString();
}

void PatternFinderView::setResults(const std::vector<Result>& results, const QString& note) {
  results_ = results;
  list_->clear();
  for (const Result& result : results_) {
    auto* item = new QTreeWidgetItem(list_);
    item->setText(0, result.modelLabel);
    item->setText(1, QString::number(result.unit.unit));
    item->setText(2, QString::number(result.unit.correlation, 'f', 3));
    item->setText(3, mean(result.unit.meanInside));
    item->setText(4, mean(result.unit.meanOutside));
    for (int c = 1; c < 5; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    item->setData(0, kModelRole, result.model);
    item->setData(0, kUnitRole, static_cast<qlonglong>(result.unit.unit));
  }
  for (int c = 0; c < list_->columnCount(); ++c) list_->resizeColumnToContents(c);
  note_->setText(note);
  // A splitter does not ask a word-wrapped label for its height: reserve its lines.
  const int lines = static_cast<int>(note.count(QLatin1Char('\n'))) + 1;
  note_->setMinimumHeight(note_->fontMetrics().lineSpacing() * (lines + 1));
}

void PatternFinderView::clearResults(const QString& note) {
  setResults({}, note);
}

QString PatternFinderView::note() const {
  return note_->text();
}

void PatternFinderView::chosen(QTreeWidgetItem* item) {
  if (!item) return;
  emit unitChosen(item->data(0, kModelRole).toInt(), item->data(0, kUnitRole).toInt());
}

}  // namespace mrnn::widgets
