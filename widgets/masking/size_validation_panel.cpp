#include "widgets/masking/size_validation_panel.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <sstream>

#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/text_format.h"
#include "widgets/display_format.h"
#include "widgets/export/export_bar.h"
#include "widgets/export/figure_export.h"
#include "widgets/masking/size_validation_plot.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {

namespace {

enum Column { RunColumn, NameColumn, ModelColumn, ParametersColumn, ValidColumn, Columns };

// A table cell that shows formatted text ("98,816") but sorts by its number.
class NumberItem : public QTableWidgetItem {
 public:
  NumberItem(const QString& text, double number) : QTableWidgetItem(text), number_(number) {
    setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
  bool operator<(const QTableWidgetItem& other) const override {
    const auto* item = dynamic_cast<const NumberItem*>(&other);
    return item ? number_ < item->number_ : QTableWidgetItem::operator<(other);
  }

 private:
  double number_;
};

QTableWidgetItem* numberItem(const QString& text, double number) {
  return new NumberItem(text, number);
}

}  // namespace

SizeValidationPanel::SizeValidationPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  refresh_ = new QToolButton(this);
  refresh_->setObjectName(QStringLiteral("refreshSizeValidation"));
  refresh_->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
  refresh_->setText(tr("Refresh"));
  refresh_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  refresh_->setToolTip(tr("Read the project's runs again (after training)"));
  note_ = new QLabel(this);
  note_->setObjectName(QStringLiteral("sizeValidationNote"));
  note_->setWordWrap(true);
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  plot_ = new SizeValidationPlot(this);
  readout_ = new QLabel(tr("Hover over a point to see its run"), this);
  readout_->setObjectName(QStringLiteral("sizeValidationReadout"));
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_ = new QTableWidget(0, Columns, this);
  table_->setObjectName(QStringLiteral("sizeValidationTable"));
  table_->setHorizontalHeaderLabels(
      {tr("Run"), tr("Name"), tr("Model"), tr("Parameters"), tr("Best valid (bits/symbol)")});
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
  table_->setSortingEnabled(true);
  table_->sortByColumn(RunColumn, Qt::AscendingOrder);  // oldest run first, as in the runs list
  table_->setToolTip(tr("The plotted runs; click a header to sort"));
  export_ = new ExportBar(
      QStringLiteral("parameters-vs-validation"),
      [this](const QString& path) { savePlot(path, plot_); }, [this] { return csv(); }, this);
  export_->setObjectName(QStringLiteral("sizeValidationExport"));

  auto* top = new QHBoxLayout;
  top->addWidget(refresh_);
  top->addWidget(note_, 1);
  auto* plotBox = new QWidget(this);
  auto* plotLayout = new QVBoxLayout(plotBox);
  plotLayout->setContentsMargins(0, 0, 0, 0);
  plotLayout->addWidget(plot_, 1);
  plotLayout->addWidget(readout_);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(plotBox);
  splitter->addWidget(table_);
  splitter->setStretchFactor(0, 5);
  splitter->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(splitter, 1);
  layout->addWidget(export_);

  connect(refresh_, &QToolButton::clicked, this, &SizeValidationPanel::refresh);
  connect(plot_, &SizeValidationPlot::runHovered, this, &SizeValidationPanel::showHovered);
  connect(&document_, &ProjectDocument::pathChanged, this, &SizeValidationPanel::refresh);
  refresh();
}

const std::vector<engine::RunRecord>& SizeValidationPanel::plottedRuns() const {
  return plot_->runs();
}

void SizeValidationPanel::refresh() {
  if (document_.isUntitled()) {
    showRuns({});
    note_->setText(
        tr("This project is not saved yet: save and train it, and its runs are "
           "plotted here by size and validation loss."));
    return;
  }
  const QString database = fromNativePath(
      engine::RunPaths::database(toNativePath(QDir(document_.folder()).absolutePath())));
  // RunStore would create a missing database; a project never trained has none to read.
  if (!QFileInfo::exists(database)) {
    showRuns({});
    note_->setText(tr("No runs yet: train the project, and its runs are plotted here."));
    return;
  }
  try {
    const engine::RunCatalogue catalogue(toNativePath(document_.folder()));
    showRuns(catalogue.runs());
  } catch (const std::exception& error) {
    showRuns({});
    note_->setText(
        tr("The run database could not be read: %1").arg(QString::fromUtf8(error.what())));
  }
}

void SizeValidationPanel::showRuns(const std::vector<engine::RunRecord>& runs) {
  plot_->setRuns(runs);
  withoutValidation_ = static_cast<int>(runs.size() - plot_->runs().size());
  if (withoutValidation_ > 0) {
    note_->setText(withoutValidation_ == 1
                       ? tr("1 run without validation is not shown.")
                       : tr("%1 runs without validation are not shown.").arg(withoutValidation_));
  } else if (runs.empty()) {
    note_->setText(tr("No runs yet: train the project, and its runs are plotted here."));
  } else {
    note_->setText(runs.size() == 1
                       ? tr("1 run by parameters and best validation loss.")
                       : tr("%1 runs by parameters and best validation loss.").arg(runs.size()));
  }
  readout_->setText(tr("Hover over a point to see its run"));
  fillTable();
  export_->setAvailable(!plot_->runs().empty());
}

void SizeValidationPanel::fillTable() {
  table_->setSortingEnabled(false);  // rows would move while they are filled
  const auto& runs = plot_->runs();
  table_->setRowCount(static_cast<int>(runs.size()));
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    const int row = static_cast<int>(i);
    const QString tooltip = SizeValidationPlot::describe(run);
    auto* id = numberItem(QString::number(run.id), static_cast<double>(run.id));
    table_->setItem(row, RunColumn, id);
    table_->setItem(row, NameColumn, new QTableWidgetItem(QString::fromStdString(run.name)));
    auto* model = new QTableWidgetItem(QString::fromStdString(run.modelType));
    if (auto* graph = plot_->graphOf(model->text())) model->setForeground(graph->pen().color());
    table_->setItem(row, ModelColumn, model);
    table_->setItem(row, ParametersColumn,
                    numberItem(formatCount(run.parameters), static_cast<double>(run.parameters)));
    table_->setItem(row, ValidColumn,
                    numberItem(QString::number(*run.bestValid, 'f', 4), *run.bestValid));
    for (int column = 0; column < Columns; ++column) table_->item(row, column)->setToolTip(tooltip);
  }
  table_->setSortingEnabled(true);
}

void SizeValidationPanel::showHovered(int index) {
  if (index < 0) {
    readout_->setText(tr("Hover over a point to see its run"));
    return;
  }
  readout_->setText(SizeValidationPlot::describe(plot_->runs()[static_cast<size_t>(index)])
                        .replace('\n', "  ·  "));
}

QByteArray SizeValidationPanel::csv() const {
  std::ostringstream out;
  out << "run_id,name,model_type,parameters,best_valid_bits\n";
  for (const auto& run : plot_->runs()) {
    out << run.id << "," << engine::csvField(run.name) << "," << engine::csvField(run.modelType)
        << "," << run.parameters << "," << engine::formatDouble(*run.bestValid) << "\n";
  }
  return QByteArray::fromStdString(out.str());
}

}  // namespace mrnn::widgets
