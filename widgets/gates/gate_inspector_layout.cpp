// The gate inspector's controls: made, laid out and connected (the panel's behaviour is in
// gate_inspector_panel.cpp).
#include <qcustomplot.h>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "engine/probing/probing_output.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/export/export_bar.h"
#include "widgets/export/figure_export.h"
#include "widgets/gates/activation_text_view.h"
#include "widgets/gates/example_passage.h"
#include "widgets/gates/gate_heatmap.h"
#include "widgets/gates/gate_histogram.h"
#include "widgets/gates/gate_inspector_panel.h"
#include "widgets/gates/gate_statistics_table.h"

namespace mrnn::widgets {

void GateInspectorPanel::buildLayout() {
  createControls();
  arrangeControls();
  connectControls();
}

void GateInspectorPanel::createControls() {
  chooserA_ = new CheckpointChooser(document_, this);
  chooserA_->setObjectName(QStringLiteral("modelChooser"));
  chooserB_ = new CheckpointChooser(document_, this);
  chooserB_->setObjectName(QStringLiteral("comparisonChooser"));
  chooserB_->setOptional(tr("(no comparison)"));
  chooserB_->setToolTip(tr("A second model recorded on the same text, shown beside the first"));

  textEdit_ = new QPlainTextEdit(this);
  textEdit_->setObjectName(QStringLiteral("gateTextEdit"));
  textEdit_->setPlainText(QString::fromUtf8(examplePassage()));
  textEdit_->setToolTip(
      tr("The text the models read. Every symbol must be in the model's vocabulary. After a "
         "run, selecting part of it marks a pattern for the unit search."));
  textEdit_->setMaximumHeight(fontMetrics().lineSpacing() * 5 + 12);

  source_ = new QComboBox(this);
  source_->setObjectName(QStringLiteral("gateTextSource"));
  source_->addItem(tr("Text below"), QString());
  source_->addItem(tr("Start of the validation split"), QStringLiteral("valid"));
  source_->addItem(tr("Start of the test split"), QStringLiteral("test"));
  source_->setToolTip(
      tr("What the models read: the text below, or the first lines of one of the project's "
         "held-out splits (text every model of the project can read)"));
  connect(source_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { textEdit_->setReadOnly(!source_->currentData().toString().isEmpty()); });

  runButton_ = new QPushButton(tr("Record gates"), this);
  runButton_->setObjectName(QStringLiteral("runGatesButton"));
  runButton_->setToolTip(
      tr("Run the model(s) over the text and record every probe of every "
         "layer at every step"));
  runButton_->setDefault(true);
  jobBar_ = new AnalysisJobBar(this);

  layerCombo_ = new QComboBox(this);
  layerCombo_->setObjectName(QStringLiteral("layerCombo"));
  layerCombo_->setToolTip(tr("The layer whose probes are shown (1 is nearest the input)"));
  probeCombo_ = new QComboBox(this);
  probeCombo_->setObjectName(QStringLiteral("probeCombo"));
  probeCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  probeCombo_->setToolTip(
      tr("What to show: a gate, the memory cell, the output, the "
         "multiplicative state m, a Mogrifier round..."));
  unitSpin_ = new QSpinBox(this);
  unitSpin_->setObjectName(QStringLiteral("unitSpin"));
  unitSpin_->setToolTip(tr("The unit that colours the text (or click a row of the heatmap)"));
  unitSpin_->setRange(0, 0);
  textModelLabel_ = new QLabel(tr("Colour the text by"), this);
  textModelCombo_ = new QComboBox(this);
  textModelCombo_->setObjectName(QStringLiteral("textModelCombo"));
  textModelCombo_->setToolTip(tr("Which model's unit colours the text"));
  textModelCombo_->addItem(tr("model A"));
  textModelCombo_->addItem(tr("model B"));
  textModelLabel_->setVisible(false);
  textModelCombo_->setVisible(false);

  heatmaps_[0] = new GateHeatmap(this);
  heatmaps_[0]->setObjectName(QStringLiteral("gateHeatmapA"));
  heatmaps_[1] = new GateHeatmap(this);
  heatmaps_[1]->setObjectName(QStringLiteral("gateHeatmapB"));
  heatmaps_[1]->setVisible(false);
  textView_ = new ActivationTextView(this);
  textLegend_ = new QLabel(this);
  textLegend_->setObjectName(QStringLiteral("textLegend"));
  textLegend_->setWordWrap(true);
  patternFinder_ = new PatternFinderView(this);
  statisticsTable_ = new GateStatisticsTable(this);
  statisticsCaption_ = new QLabel(this);
  statisticsCaption_->setObjectName(QStringLiteral("statisticsCaption"));
  statisticsCaption_->setWordWrap(true);
  histogram_ = new GateHistogram(this);

  heatmapExport_ = new ExportBar(
      QStringLiteral("gate-heatmap"), [this](const QString& path) { saveHeatmapFigure(path); },
      [this] {
        return hasReports() ? QByteArray::fromStdString(engine::gateReportCsv(*reports_[0]))
                            : QByteArray();
      },
      this);
  heatmapExport_->setObjectName(QStringLiteral("heatmapExport"));
  heatmapExport_->setToolTip(
      tr("The heatmap(s) as a figure; every value of model A (all layers "
         "and probes, one row per step and unit) as CSV"));
  statisticsExport_ = new ExportBar(
      QStringLiteral("gate-statistics"),
      [this](const QString& path) { savePlot(path, histogram_); },
      [this] { return statisticsTable_->csv(); }, this);
  statisticsExport_->setObjectName(QStringLiteral("statisticsExport"));
  statisticsExport_->setToolTip(
      tr("The histogram as a figure; the statistics of both models as CSV"));
  textExport_ = new ExportBar(
      QStringLiteral("gate-text"), [this](const QString& path) { saveWidget(path, textView_); },
      [this] { return unitCsv(); }, this);
  textExport_->setObjectName(QStringLiteral("textExport"));
  textExport_->setToolTip(
      tr("The coloured text as a figure; the unit's value at every step as "
         "CSV"));
}

void GateInspectorPanel::arrangeControls() {
  // Inputs.
  auto* inputs = new QGridLayout;
  inputs->addWidget(new QLabel(tr("Model"), this), 0, 0);
  inputs->addWidget(chooserA_, 0, 1);
  inputs->addWidget(new QLabel(tr("Compare with"), this), 0, 2);
  inputs->addWidget(chooserB_, 0, 3);
  inputs->addWidget(new QLabel(tr("Text"), this), 1, 0, Qt::AlignTop);
  inputs->addWidget(textEdit_, 1, 1, 1, 3);
  auto* runRow = new QHBoxLayout;
  runRow->addWidget(source_);
  runRow->addWidget(runButton_);
  runRow->addWidget(jobBar_, 1);
  inputs->addLayout(runRow, 2, 1, 1, 3);
  inputs->setColumnStretch(1, 1);
  inputs->setColumnStretch(3, 1);

  auto* choice = new QHBoxLayout;
  choice->addWidget(new QLabel(tr("Layer"), this));
  choice->addWidget(layerCombo_);
  choice->addSpacing(8);
  choice->addWidget(new QLabel(tr("Probe"), this));
  choice->addWidget(probeCombo_);
  choice->addSpacing(8);
  choice->addWidget(new QLabel(tr("Unit"), this));
  choice->addWidget(unitSpin_);
  choice->addSpacing(8);
  choice->addWidget(textModelLabel_);
  choice->addWidget(textModelCombo_);
  choice->addStretch(1);

  // Activations: the maps above, the coloured text and the unit search below.
  auto* maps = new QWidget(this);
  auto* mapsLayout = new QVBoxLayout(maps);
  mapsLayout->setContentsMargins(0, 0, 0, 0);
  auto* mapPair = new QHBoxLayout;
  mapPair->addWidget(heatmaps_[0], 1);
  mapPair->addWidget(heatmaps_[1], 1);
  mapsLayout->addLayout(mapPair, 1);
  mapsLayout->addWidget(heatmapExport_, 0, Qt::AlignLeft);
  auto* textBox = new QWidget(this);
  auto* textLayout = new QVBoxLayout(textBox);
  textLayout->setContentsMargins(0, 0, 0, 0);
  textLayout->addWidget(textLegend_);
  textLayout->addWidget(textView_, 1);
  textLayout->addWidget(textExport_, 0, Qt::AlignLeft);
  auto* lower = new QSplitter(Qt::Horizontal, this);
  lower->addWidget(textBox);
  lower->addWidget(patternFinder_);
  lower->setStretchFactor(0, 3);
  lower->setStretchFactor(1, 2);
  auto* activations = new QSplitter(Qt::Vertical, this);
  activations->setObjectName(QStringLiteral("activationsSplitter"));
  activations->addWidget(maps);
  activations->addWidget(lower);
  activations->setStretchFactor(0, 3);
  activations->setStretchFactor(1, 2);

  auto* statistics = new QWidget(this);
  auto* statisticsLayout = new QVBoxLayout(statistics);
  statisticsLayout->addWidget(statisticsCaption_);
  auto* statisticsSplit = new QSplitter(Qt::Horizontal, this);
  statisticsSplit->addWidget(statisticsTable_);
  statisticsSplit->addWidget(histogram_);
  statisticsSplit->setStretchFactor(0, 1);
  statisticsSplit->setStretchFactor(1, 1);
  statisticsLayout->addWidget(statisticsSplit, 1);
  statisticsLayout->addWidget(statisticsExport_, 0, Qt::AlignLeft);

  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("gateTabs"));
  tabs_->addTab(activations, tr("Activations"));
  tabs_->addTab(statistics, tr("Statistics"));

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(inputs);
  layout->addLayout(choice);
  layout->addWidget(tabs_, 1);
}

void GateInspectorPanel::connectControls() {
  connect(runButton_, &QPushButton::clicked, this, &GateInspectorPanel::runAnalysis);
  connect(jobBar_, &AnalysisJobBar::started, this, [this] { runButton_->setEnabled(false); });
  connect(jobBar_, &AnalysisJobBar::finished, this, [this](bool ok) {
    runButton_->setEnabled(true);
    emit analysisFinished(ok);
  });
  connect(layerCombo_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    fillProbes();
    updateProbeViews();
  });
  connect(probeCombo_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { updateProbeViews(); });
  connect(unitSpin_, qOverload<int>(&QSpinBox::valueChanged), this, [this] { updateUnitViews(); });
  connect(textModelCombo_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this](int model) { setShownModel(model); });
  for (int m = 0; m < 2; ++m) {
    connect(heatmaps_[static_cast<size_t>(m)], &GateHeatmap::unitClicked, this,
            [this, m](int unit) {
              setShownModel(m);
              selectUnit(unit);
            });
    connect(heatmaps_[static_cast<size_t>(m)], &GateHeatmap::stepsBrushed, this,
            [this, m](qint64 first, qint64 end) { stepsBrushed(m, first, end); });
  }
  connect(statisticsTable_, &QTableWidget::cellClicked, this, [this](int row) {
    int layer = 0;
    QString probe;
    if (traceNamed(statisticsTable_->probeName(row), &layer, &probe)) selectProbe(layer, probe);
  });
  connect(textView_, &ActivationTextView::stepSelectionChanged, this,
          &GateInspectorPanel::viewSelectionChanged);
  connect(textEdit_, &QPlainTextEdit::selectionChanged, this,
          &GateInspectorPanel::textBoxSelectionChanged);
  connect(patternFinder_, &PatternFinderView::findRequested, this, &GateInspectorPanel::findUnits);
  connect(patternFinder_, &PatternFinderView::unitChosen, this, [this](int model, int unit) {
    setShownModel(model);
    selectUnit(unit);
  });
  textLegend_->setText(tr("Record the gates to colour the text by a unit."));
}

}  // namespace mrnn::widgets
