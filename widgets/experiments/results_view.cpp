#include "widgets/experiments/results_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

#include "engine/experiment/claim_results.h"
#include "widgets/experiments/metric_axis_plot.h"
#include "widgets/experiments/parallel_coordinates_view.h"
#include "widgets/experiments/results_table_model.h"
#include "widgets/export/export_bar.h"
#include "widgets/export/figure_export.h"

namespace mrnn::widgets {

ResultsView::ResultsView(QWidget* parent) : QWidget(parent) {
  model_ = new ResultsTableModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(ResultsTableModel::SortRole);
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("experimentResultsTable"));
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(0, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setWordWrap(false);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setToolTip(
      tr("One row per configuration; click a header to sort, select rows and "
         "Show in monitor to overlay their runs' curves"));

  metric_ = new QComboBox(this);
  metric_->setObjectName(QStringLiteral("experimentMetric"));
  for (const std::string& name : engine::experimentMetricNames()) {
    metric_->addItem(MetricAxisPlot::metricLabel(name), QString::fromStdString(name));
  }
  axis_ = new QComboBox(this);
  axis_->setObjectName(QStringLiteral("experimentPlotAxis"));
  axis_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  show_ = new QToolButton(this);
  show_->setObjectName(QStringLiteral("showInMonitor"));
  show_->setText(tr("Show in monitor"));
  show_->setIcon(style()->standardIcon(QStyle::SP_FileDialogContentsView));
  show_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  show_->setToolTip(tr("Overlay the selected configurations' runs in the training monitor"));

  plot_ = new MetricAxisPlot(this);
  parallel_ = new ParallelCoordinatesView(this);
  figures_ = new QTabWidget(this);
  figures_->setObjectName(QStringLiteral("experimentFigures"));
  figures_->setDocumentMode(true);
  figures_->addTab(plot_, tr("Metric against axis"));
  figures_->addTab(parallel_, tr("Parallel coordinates"));

  export_ = new ExportBar(
      QStringLiteral("experiment-results"), [this](const QString& path) { saveFigure(path); },
      [this] { return csv(); }, this);
  export_->setObjectName(QStringLiteral("experimentExport"));
  export_->figureButton()->setToolTip(tr("Save the figure in view as PNG, SVG or PDF"));
  export_->csvButton()->setToolTip(
      tr("Save the results table as CSV (as `mrnn experiment table --format csv`)"));

  auto* controls = new QHBoxLayout;
  controls->addWidget(show_);
  controls->addSpacing(12);
  auto* metricLabel = new QLabel(tr("Metric"), this);
  metricLabel->setBuddy(metric_);
  controls->addWidget(metricLabel);
  controls->addWidget(metric_);
  auto* axisLabel = new QLabel(tr("against"), this);
  axisLabel->setBuddy(axis_);
  controls->addWidget(axisLabel);
  controls->addWidget(axis_);
  controls->addStretch(1);
  controls->addWidget(export_);

  // Two configurations selected: their difference and Welch's t-test over the seeds. The line
  // is always there (a hint when fewer or more are selected), so the layout never jumps.
  comparison_ = new QLabel(this);
  comparison_->setObjectName(QStringLiteral("configurationComparison"));
  comparison_->setWordWrap(true);
  comparison_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* tableSide = new QWidget(this);
  auto* tableLayout = new QVBoxLayout(tableSide);
  tableLayout->setContentsMargins(0, 0, 0, 0);
  tableLayout->addWidget(table_, 1);
  tableLayout->addWidget(comparison_);
  claims_ = new QLabel(this);
  claims_->setObjectName(QStringLiteral("experimentClaims"));
  claims_->setWordWrap(true);
  claims_->setTextFormat(Qt::RichText);
  claims_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  tableLayout->addWidget(claims_);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(tableSide);
  splitter->addWidget(figures_);
  // The table has many columns; the figures scale to what is left.
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setSizes({600, 400});
  splitter->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(controls);
  layout->addWidget(splitter, 1);

  connect(metric_, &QComboBox::currentIndexChanged, this, &ResultsView::redraw);
  connect(axis_, &QComboBox::currentIndexChanged, this, &ResultsView::redraw);
  connect(show_, &QToolButton::clicked, this, [this] { emit showRunsRequested(selectedRunIds()); });
  connect(table_, &QTableView::doubleClicked, this,
          [this] { emit showRunsRequested(selectedRunIds()); });
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &ResultsView::updateButtons);
  clear();
}

void ResultsView::clear() {
  static const engine::ExperimentPlan none;
  setResults(none, {});
}

void ResultsView::setResults(const engine::ExperimentPlan& plan,
                             const std::vector<engine::ConfigurationResult>& rows) {
  QList<qint64> selected;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
    selected.append(index.data(ResultsTableModel::ConfigurationRole).toLongLong());
  }
  plan_ = plan;
  rows_ = rows;
  QStringList labels, keys;
  for (const engine::ExperimentAxis& axis : plan.experiment.axes) {
    labels.append(QString::fromStdString(axis.label));
    keys.append(QString::fromStdString(axis.key));
  }
  model_->setResults(labels, keys, rows);
  // The metric box in the results' unit: a real-valued output's "bpc" is its squared error,
  // and it has no perplexity to offer; the share of sequences wrong only for long-range
  // problems.
  const bool squaredErrors = engine::allSquaredErrors(engine::lossUnitsOf(rows));
  const bool sequences = engine::anyScoresSequences(rows);
  const auto offered = [&](const std::string& name) {
    if (name == "test_error_rate") return sequences;
    return !(squaredErrors && name.find("perplexity") != std::string::npos);
  };
  auto* list = qobject_cast<QListView*>(metric_->view());
  for (int i = 0; i < metric_->count(); ++i) {
    const std::string name = metric_->itemData(i).toString().toStdString();
    metric_->setItemText(i, MetricAxisPlot::metricLabel(name, rows));
    if (list) list->setRowHidden(i, !offered(name));
  }
  if (!offered(metric())) setMetric(metric().rfind("test_", 0) == 0 ? "test_bpc" : "valid_bpc");
  selectConfigurations(selected);
  // References can be long ("test bpc 1.11 (Maupomé & Meurs, Table 1)"): capped, whole in
  // their tooltips, so that the state stays in view on a laptop's screen.
  QHeaderView* header = table_->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  header->setSectionResizeMode(model_->referenceColumn(), QHeaderView::Interactive);
  table_->resizeColumnToContents(model_->referenceColumn());
  table_->setColumnWidth(model_->referenceColumn(),
                         std::min(table_->columnWidth(model_->referenceColumn()),
                                  fontMetrics().horizontalAdvance(QLatin1Char('x')) * 18));

  // The axis chooser follows the plan's axes, keeping the choice when the axis stays.
  const QString chosen = axis_->currentData().toString();
  {
    const QSignalBlocker block(axis_);
    axis_->clear();
    for (int i = 0; i < labels.size(); ++i) axis_->addItem(labels[i], keys[i]);
    const int again = axis_->findData(chosen);
    // A cell type (the first text axis) is the usual first look; else the first axis.
    int start = 0;
    for (size_t i = 0; i < plan.experiment.axes.size(); ++i) {
      if (plan.experiment.axes[i].kind == engine::AxisKind::Cells) {
        start = static_cast<int>(i);
        break;
      }
    }
    axis_->setCurrentIndex(again >= 0 ? again : (labels.isEmpty() ? -1 : start));
  }
  updateClaims();
  redraw();
  updateButtons();
}

QString ResultsView::claims() const {
  return claims_->text();
}

// Each claim of the file on one line: a mark, the ordering, the verdict, both sides' seeds and
// the one-sided p; the source in its tooltip. Hidden when the file states none.
void ResultsView::updateClaims() {
  const auto results = engine::claimResults(plan_, rows_);
  QStringList lines;
  QStringList sources;
  for (const engine::ClaimResult& claim : results) {
    using Verdict = engine::ClaimResult::Verdict;
    const QString mark = claim.verdict == Verdict::Holds            ? QStringLiteral("\u2714")
                         : claim.verdict == Verdict::Reversed       ? QStringLiteral("\u2718")
                         : claim.verdict == Verdict::NotSignificant ? QStringLiteral("~")
                                                                    : QStringLiteral("\u2026");
    QString figures;
    if (claim.better.count > 0 && claim.worse.count > 0) {
      figures =
          tr(": %1 against %2").arg(claim.better.mean, 0, 'f', 4).arg(claim.worse.mean, 0, 'f', 4);
      if (claim.test) figures += tr(", p = %1").arg(claim.oneSidedP, 0, 'g', 2);
    }
    lines.append(tr("%1 <b>%2</b> below <b>%3</b> (%4): %5%6")
                     .arg(mark, QString::fromStdString(claim.betterLabel).toHtmlEscaped(),
                          QString::fromStdString(claim.worseLabel).toHtmlEscaped(),
                          MetricAxisPlot::metricLabel(claim.claim.metric, rows_),
                          QString::fromStdString(claim.verdictText()), figures));
    sources.append(QString::fromStdString(claim.claim.source));
  }
  claims_->setVisible(!lines.isEmpty());
  claims_->setText(lines.isEmpty() ? QString()
                                   : tr("Claims (one-sided Welch's t-test over the seeds):<br>") +
                                         lines.join(QStringLiteral("<br>")));
  claims_->setToolTip(sources.join(QLatin1Char('\n')));
}

void ResultsView::redraw() {
  plot_->setResults(plan_.experiment.axes, rows_, metric(), axis());
  parallel_->setResults(plan_.experiment.axes, rows_, metric());
  updateComparison();
}

QString ResultsView::comparison() const {
  return comparison_->text();
}

void ResultsView::updateComparison() {
  std::vector<const engine::ConfigurationResult*> chosen;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
    const qint64 configuration = index.data(ResultsTableModel::ConfigurationRole).toLongLong();
    for (const auto& row : rows_) {
      if (row.configuration == configuration) chosen.push_back(&row);
    }
  }
  std::sort(chosen.begin(), chosen.end(),
            [](const auto* a, const auto* b) { return a->configuration < b->configuration; });
  comparison_->setText(chosen.size() == 2
                           ? ResultsTableModel::comparisonText(*chosen[0], *chosen[1], metric())
                           : tr("Select two configurations to compare their seeds (Welch's "
                                "t-test)."));
}

void ResultsView::updateButtons() {
  bool anyRun = false;
  for (const auto& row : rows_) anyRun = anyRun || !row.runIds.empty();
  show_->setEnabled(!selectedRunIds().isEmpty());
  export_->setAvailable(!rows_.empty() && anyRun);
  updateComparison();
}

void ResultsView::setMetric(const std::string& metric) {
  const int index = metric_->findData(QString::fromStdString(metric));
  if (index >= 0) metric_->setCurrentIndex(index);
}

std::string ResultsView::metric() const {
  const QString name = metric_->currentData().toString();
  return name.isEmpty() ? std::string("valid_bpc") : name.toStdString();
}

void ResultsView::setAxis(int axis) {
  if (axis >= 0 && axis < axis_->count()) axis_->setCurrentIndex(axis);
}

int ResultsView::axis() const {
  return axis_->currentIndex();
}

QList<qint64> ResultsView::selectedRunIds() const {
  std::map<int, QList<qint64>> byRow;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
    for (const QVariant& id : index.data(ResultsTableModel::RunIdsRole).toList()) {
      byRow[index.row()].append(id.toLongLong());
    }
  }
  QList<qint64> ids;
  for (const auto& [row, runs] : byRow) {
    for (const qint64 id : runs) {
      if (!ids.contains(id)) ids.append(id);
    }
  }
  return ids;
}

void ResultsView::selectConfigurations(const QList<qint64>& configurations) {
  QItemSelection selection;
  for (int row = 0; row < proxy_->rowCount(); ++row) {
    const QModelIndex index = proxy_->index(row, 0);
    if (configurations.contains(index.data(ResultsTableModel::ConfigurationRole).toLongLong())) {
      selection.select(index, proxy_->index(row, proxy_->columnCount() - 1));
    }
  }
  table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

QByteArray ResultsView::csv() const {
  return QByteArray::fromStdString(engine::resultsCsv(plan_, rows_));
}

void ResultsView::saveFigure(const QString& path) const {
  if (figures_->currentWidget() == parallel_) {
    widgets::saveFigure(path, parallel_->size(), [this](QPaintDevice& device, const QSize& size) {
      QPainter painter(&device);
      parallel_->paint(painter, size);
    });
  } else {
    savePlot(path, plot_);
  }
}

}  // namespace mrnn::widgets
