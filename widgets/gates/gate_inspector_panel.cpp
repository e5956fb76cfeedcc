#include "widgets/gates/gate_inspector_panel.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextCursor>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/loaded_model.h"
#include "engine/probing/gate_analysis.h"
#include "engine/probing/probing_output.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/analysis/model_slot.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/export/export_bar.h"
#include "widgets/export/figure_export.h"
#include "widgets/gates/activation_text_view.h"
#include "widgets/gates/example_passage.h"
#include "widgets/gates/gate_heatmap.h"
#include "widgets/gates/gate_histogram.h"
#include "widgets/gates/gate_statistics_table.h"
#include "widgets/gates/probe_description.h"
#include "widgets/project/project_document.h"
#include "widgets/run_colours.h"
#include "widgets/visible_symbol.h"

namespace mrnn::widgets {

namespace {

// Enough to see the best units of a large layer without scrolling through all of them.
constexpr int kTopUnits = 20;

}  // namespace

GateInspectorPanel::GateInspectorPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  // Each job holds its own reference, so a model outlives a panel closed mid-run.
  slots_ = {std::make_shared<ModelSlot>(), std::make_shared<ModelSlot>()};
  setObjectName(QStringLiteral("gateInspectorPanel"));
  buildLayout();
}

GateInspectorPanel::~GateInspectorPanel() = default;

void GateInspectorPanel::setText(const QString& text) {
  textEdit_->setPlainText(text);
}

QString GateInspectorPanel::text() const {
  return textEdit_->toPlainText();
}

void GateInspectorPanel::setCheckpoint(const QString& path) {
  chooserA_->setCheckpoint(path);
}

void GateInspectorPanel::setComparisonCheckpoint(const QString& path) {
  if (path.isEmpty()) {
    chooserB_->comboBox()->setCurrentIndex(0);  // the "(no comparison)" entry
  } else {
    chooserB_->setCheckpoint(path);
  }
}

void GateInspectorPanel::refreshCheckpoints() {
  chooserA_->refresh();
  chooserB_->refresh();
}

QTreeWidget* GateInspectorPanel::patternResults() const {
  return patternFinder_->resultList();
}

void GateInspectorPanel::runAnalysis() {
  if (jobBar_->isRunning()) return;
  // The text the job reads, which it may swap for held-out text when it is the example.
  auto passage = std::make_shared<ExamplePassage>();
  passage->text = textEdit_->toPlainText().toStdString();
  passage->split = source_->currentData().toString().toStdString();
  std::shared_ptr<const engine::Project> project;
  if (passage->text == examplePassage() || !passage->split.empty())
    project = std::make_shared<engine::Project>(document_.project());
  const std::array<std::string, 2> paths{chooserA_->checkpoint().toStdString(),
                                         chooserB_->checkpoint().toStdString()};
  const std::array<QString, 2> labels{chooserA_->label(), chooserB_->label()};
  runIds_ = {chooserA_->runId(), chooserB_->runId()};
  const int models = paths[1].empty() ? 1 : 2;
  auto results = std::make_shared<std::array<std::optional<engine::GateReport>, 2>>();
  const auto modelSlots = slots_;
  jobBar_->run(
      models == 2 ? tr("Recording gates of A and B") : tr("Recording gates"),
      [passage, project, paths, models, results, modelSlots](engine::JobContext& job) {
        for (int m = 0; m < models; ++m) {
          const std::string name = m == 0 ? "model A" : "model B";
          const double from = static_cast<double>(m) / models;
          const double share = 1.0 / models;
          job.report(from, "loading " + name);
          engine::LoadedModel& loaded =
              modelSlots[static_cast<size_t>(m)]->get(paths[static_cast<size_t>(m)]);
          if (m == 0 && project) {
            *passage = passage->split.empty()
                           ? examplePassageFor(passage->text, *project, loaded.vocabulary)
                           : heldOutPassage(*project, loaded.vocabulary, passage->split);
          }
          try {
            engine::JobContext part = job.part(from, from + share, name);
            (*results)[static_cast<size_t>(m)] = engine::analyzeGates(
                *loaded.model, loaded.vocabulary, passage->text, engine::GateOptions{}, &part);
          } catch (const std::invalid_argument& error) {
            // An empty text or a symbol the model never saw: say which model and what to do.
            throw std::runtime_error(name + " cannot read the text: " + error.what() +
                                     " (use only symbols of the model's training data)");
          }
        }
      },
      [this, results, labels, passage] {
        if (!(*results)[0]) return;
        if (passage->fromValidation || !passage->split.empty()) {
          textEdit_->setPlainText(QString::fromStdString(passage->text));
          jobBar_->setSuccessNote(
              passage->fromValidation
                  ? tr("Model A cannot read every symbol of the example passage, so this is the "
                       "start of the project's validation text.")
                  : tr("The start of the project's %1 split.")
                        .arg(passage->split == "test" ? tr("test") : tr("validation")));
        }
        showReportsLabelled(*(*results)[0], (*results)[1], labels[0], labels[1], passage->text);
      });
}

void GateInspectorPanel::showReports(const engine::GateReport& a,
                                     const std::optional<engine::GateReport>& b) {
  showReportsLabelled(a, b, chooserA_->label(), chooserB_->label(), textOfSymbols(a.symbols));
}

void GateInspectorPanel::showReportsLabelled(const engine::GateReport& a,
                                             const std::optional<engine::GateReport>& b,
                                             const QString& labelA, const QString& labelB,
                                             const std::string& text) {
  reports_[0] = a;
  reports_[1] = b;
  labels_[0] = labelA.isEmpty() ? tr("model A") : labelA;
  labels_[1] = labelB.isEmpty() ? tr("model B") : labelB;
  analysedText_ = text;
  for (size_t m = 0; m < 2; ++m) {
    located_[m] =
        reports_[m] ? locateSymbols(analysedText_, reports_[m]->symbols) : std::vector<StepRange>{};
  }
  selectionBytes_ = {-1, -1};
  const bool comparing = reports_[1].has_value();
  {
    const QSignalBlocker blocker(textModelCombo_);
    textModelCombo_->setItemText(0, tr("A: %1").arg(labels_[0]));
    textModelCombo_->setItemText(1, tr("B: %1").arg(labels_[1]));
    if (!comparing) textModelCombo_->setCurrentIndex(0);
  }
  textModelLabel_->setVisible(comparing);
  textModelCombo_->setVisible(comparing);
  heatmaps_[1]->setVisible(comparing);
  textModel_ = -1;  // the text view is refilled below

  statisticsTable_->setReports(*reports_[0], comparing ? &*reports_[1] : nullptr, labels_[0],
                               labels_[1]);
  QString caption = tr("A: %1 · %2 steps").arg(labels_[0]).arg(reports_[0]->symbols.size());
  if (comparing) {
    caption += tr("   —   B: %1 · %2 steps").arg(labels_[1]).arg(reports_[1]->symbols.size());
  }
  statisticsCaption_->setText(caption);

  patternFinder_->findButton()->setEnabled(true);
  // Text without quotes (Shakespeare's, most corpora's) gives "inside quotes" nothing to find.
  const std::vector<double> quoted = insideQuotes(reports_[0]->symbols);
  const bool quotes = std::any_of(quoted.begin(), quoted.end(), [](double v) { return v > 0; });
  if (!quotes && patternFinder_->pattern() == PatternFinderView::Pattern::InsideQuotes) {
    patternFinder_->setPattern(PatternFinderView::Pattern::AfterSpace);
  }
  patternFinder_->clearResults(quotes ? tr("Choose a pattern and press Find units.")
                                      : tr("The text has no quotes: choose a pattern (after a "
                                           "space looks for units that mark word starts) and "
                                           "press Find units."));
  fillLayers();
  updateProbeViews();
  heatmapExport_->setAvailable(true);
  statisticsExport_->setAvailable(true);
  textExport_->setAvailable(true);
}

const engine::GateReport* GateInspectorPanel::report(int model) const {
  if (model < 0 || model > 1 || !reports_[static_cast<size_t>(model)]) return nullptr;
  return &*reports_[static_cast<size_t>(model)];
}

const engine::ProbeTrace* GateInspectorPanel::trace(int model, int layer,
                                                    const QString& probe) const {
  const engine::GateReport* found = report(model);
  if (!found) return nullptr;
  const std::string name = probe.toStdString();
  for (const engine::ProbeTrace& t : found->traces) {
    if (t.layer == layer && t.probe == name) return &t;
  }
  return nullptr;
}

const engine::ProbeTrace* GateInspectorPanel::traceNamed(const QString& name, int* layer,
                                                         QString* probe) const {
  for (int m = 0; m < 2; ++m) {
    const engine::GateReport* found = report(m);
    if (!found) continue;
    for (const engine::ProbeTrace& t : found->traces) {
      if (QString::fromStdString(t.name) != name) continue;
      *layer = static_cast<int>(t.layer);
      *probe = QString::fromStdString(t.probe);
      return &t;
    }
  }
  return nullptr;
}

QString GateInspectorPanel::modelLabel(int model) const {
  return model == 0 ? tr("A") : tr("B");
}

void GateInspectorPanel::fillLayers() {
  const int keep = selectedLayer();
  std::vector<int> layers;
  for (int m = 0; m < 2; ++m) {
    if (const engine::GateReport* r = report(m)) {
      for (const auto& t : r->traces) layers.push_back(static_cast<int>(t.layer));
    }
  }
  std::sort(layers.begin(), layers.end());
  layers.erase(std::unique(layers.begin(), layers.end()), layers.end());
  {
    const QSignalBlocker blocker(layerCombo_);
    layerCombo_->clear();
    for (const int layer : layers) layerCombo_->addItem(tr("layer %1").arg(layer), layer);
    const int row = layerCombo_->findData(keep);
    layerCombo_->setCurrentIndex(row >= 0 ? row : 0);
  }
  fillProbes();
}

void GateInspectorPanel::fillProbes() {
  const QString keep = selectedProbe();
  const int layer = selectedLayer();
  QStringList probes;
  QStringList gates;
  for (int m = 0; m < 2; ++m) {
    if (const engine::GateReport* r = report(m)) {
      for (const auto& t : r->traces) {
        const QString probe = QString::fromStdString(t.probe);
        if (t.layer != layer || probes.contains(probe)) continue;
        probes << probe;
        if (t.isGate) gates << probe;
      }
    }
  }
  const QSignalBlocker blocker(probeCombo_);
  probeCombo_->clear();
  for (const QString& probe : probes) {
    probeCombo_->addItem(probe, probe);
    probeCombo_->setItemData(probeCombo_->count() - 1, probeDescription(probe), Qt::ToolTipRole);
  }
  // The forget gate is where the papers look first; then any gate.
  int row = probeCombo_->findData(keep);
  if (row < 0) row = probeCombo_->findData(QStringLiteral("f"));
  if (row < 0 && !gates.isEmpty()) row = probeCombo_->findData(gates.first());
  probeCombo_->setCurrentIndex(row >= 0 ? row : 0);
}

int GateInspectorPanel::selectedLayer() const {
  return layerCombo_->currentData().toInt();
}

QString GateInspectorPanel::selectedProbe() const {
  return probeCombo_->currentData().toString();
}

void GateInspectorPanel::selectProbe(int layer, const QString& probe) {
  {
    const QSignalBlocker blocker(layerCombo_);
    const int row = layerCombo_->findData(layer);
    if (row >= 0) layerCombo_->setCurrentIndex(row);
  }
  fillProbes();
  {
    const QSignalBlocker blocker(probeCombo_);
    const int row = probeCombo_->findData(probe);
    if (row >= 0) probeCombo_->setCurrentIndex(row);
  }
  updateProbeViews();
}

void GateInspectorPanel::updateProbeViews() {
  if (!hasReports()) return;
  const int layer = selectedLayer();
  const QString probe = selectedProbe();
  const std::array<const engine::ProbeTrace*, 2> traces{trace(0, layer, probe),
                                                        trace(1, layer, probe)};
  scale_ = ActivationColourScale::forTraces({traces[0], traces[1]});
  for (size_t m = 0; m < 2; ++m) {
    const engine::GateReport* r = report(static_cast<int>(m));
    if (!r) {
      heatmaps_[m]->clearMap(QString());
      continue;
    }
    const QString who = tr("%1: %2").arg(modelLabel(static_cast<int>(m)), labels_[m]);
    if (traces[m]) {
      heatmaps_[m]->setTrace(*traces[m], r->symbols, scale_,
                             tr("%1 · layer %2 / %3").arg(who).arg(layer).arg(probe));
    } else {
      heatmaps_[m]->clearMap(tr("%1 has no probe %2 in layer %3").arg(who, probe).arg(layer));
    }
  }
  showBrushes();
  const QVector<QColor> colours = modelColours({runIds_[0], runIds_[1]});
  histogram_->setColours(colours[0], colours[1]);
  histogram_->setTraces(traces[0], traces[1], tr("A: %1").arg(labels_[0]),
                        tr("B: %1").arg(labels_[1]),
                        tr("layer %1 / %2 (%3)").arg(layer).arg(probe, probeDescription(probe)));
  const engine::ProbeTrace* named = traces[0] ? traces[0] : traces[1];
  const int row = named ? statisticsTable_->rowOf(QString::fromStdString(named->name)) : -1;
  {
    const QSignalBlocker blocker(statisticsTable_);
    if (row >= 0) statisticsTable_->selectRow(row);
  }
  int shown = textModelCombo_->currentIndex();
  if (!report(shown)) shown = 0;
  showTextOf(shown);
  const engine::ProbeTrace* current = traces[static_cast<size_t>(shown)];
  {
    const QSignalBlocker blocker(unitSpin_);
    unitSpin_->setRange(0, current ? std::max<int>(static_cast<int>(current->units) - 1, 0) : 0);
  }
  updateUnitViews();
  // Results of the last search follow the probe shown.
  if (!patternFinder_->results().empty()) findUnits();
}

void GateInspectorPanel::showTextOf(int model) {
  if (model == textModel_ || !report(model)) return;
  textModel_ = model;
  textView_->setSymbols(reports_[static_cast<size_t>(model)]->symbols);
}

void GateInspectorPanel::updateUnitViews() {
  if (!hasReports()) return;
  const int model = shownModel();
  const int layer = selectedLayer();
  const QString probe = selectedProbe();
  const int unit = unitSpin_->value();
  const engine::ProbeTrace* t = trace(model, layer, probe);
  heatmaps_[static_cast<size_t>(1 - model)]->setSelectedUnit(-1);
  if (!t) {
    textView_->clearValues();
    heatmaps_[static_cast<size_t>(model)]->setSelectedUnit(-1);
    textLegend_->setText(
        tr("Model %1 has no probe %2 in layer %3.").arg(modelLabel(model), probe).arg(layer));
    return;
  }
  heatmaps_[static_cast<size_t>(model)]->setSelectedUnit(unit);
  const std::vector<float> all = t->floats();
  std::vector<float> values(static_cast<size_t>(t->steps));
  for (int64_t s = 0; s < t->steps; ++s) {
    values[static_cast<size_t>(s)] = all[static_cast<size_t>(s * t->units + unit)];
  }
  const QString what = tr("%1 unit %2").arg(QString::fromStdString(t->name)).arg(unit);
  textView_->setValues(values, scale_, what);
  const QString low =
      scale_.isGate() ? tr("0 (white)") : tr("%1 (dark blue)").arg(scale_.lower(), 0, 'g', 3);
  const QString high =
      // The names of the scale's own end colours (activation_colour_scale.cpp).
      scale_.isGate() ? tr("0.5 (orange) … 1 (dark brown)")
                      : tr("%1 (dark red)").arg(scale_.upper(), 0, 'g', 3);
  textLegend_->setText(tr("Background: model %1, layer %2 / %3, unit %4 · %5 … %6")
                           .arg(modelLabel(model))
                           .arg(layer)
                           .arg(probe)
                           .arg(unit)
                           .arg(low, high));
}

void GateInspectorPanel::selectUnit(int unit) {
  {
    const QSignalBlocker blocker(unitSpin_);
    unitSpin_->setValue(unit);  // clamped to the probe's units
  }
  updateUnitViews();
}

int GateInspectorPanel::selectedUnit() const {
  return unitSpin_->value();
}

void GateInspectorPanel::setShownModel(int model) {
  if (!report(model)) model = 0;
  {
    const QSignalBlocker blocker(textModelCombo_);
    textModelCombo_->setCurrentIndex(model);
  }
  if (!hasReports()) return;
  showTextOf(model);
  const engine::ProbeTrace* t = trace(model, selectedLayer(), selectedProbe());
  {
    const QSignalBlocker blocker(unitSpin_);
    unitSpin_->setRange(0, t ? std::max<int>(static_cast<int>(t->units) - 1, 0) : 0);
  }
  updateUnitViews();
}

int GateInspectorPanel::shownModel() const {
  const int model = textModelCombo_->currentIndex();
  return report(model) ? model : 0;
}

void GateInspectorPanel::setPattern(PatternFinderView::Pattern pattern) {
  patternFinder_->setPattern(pattern);
}

StepRange GateInspectorPanel::patternSelection() const {
  if (selectionBytes_.first < 0 || located_[0].empty()) return {-1, -1};
  return stepsInBytes(located_[0], selectionBytes_.first, selectionBytes_.end);
}

void GateInspectorPanel::viewSelectionChanged(qint64 first, qint64 end) {
  // An emptied selection keeps the last pattern: clicking elsewhere should not lose it.
  if (first < 0 || textModel_ < 0) return;
  useSelection(bytesOfSteps(located_[static_cast<size_t>(textModel_)], {first, end}));
}

void GateInspectorPanel::textBoxSelectionChanged() {
  const QTextCursor cursor = textEdit_->textCursor();
  if (!hasReports() || !cursor.hasSelection()) return;
  const QString text = textEdit_->toPlainText();
  // Positions only mean steps while the box still holds the analysed text.
  if (text.toStdString() != analysedText_) return;
  const auto begin = static_cast<int64_t>(text.left(cursor.selectionStart()).toUtf8().size());
  const auto end = static_cast<int64_t>(text.left(cursor.selectionEnd()).toUtf8().size());
  useSelection({begin, end});
}

void GateInspectorPanel::stepsBrushed(int model, qint64 first, qint64 end) {
  if (!report(model)) return;
  const StepRange bytes = bytesOfSteps(located_[static_cast<size_t>(model)], {first, end});
  if (bytes.first < 0 || bytes.empty()) return;
  useSelection(bytes);
  if (textModel_ >= 0) {
    textView_->selectSteps(
        stepsInBytes(located_[static_cast<size_t>(textModel_)], bytes.first, bytes.end));
  }
  findUnits();
}

void GateInspectorPanel::showBrushes() {
  for (size_t m = 0; m < 2; ++m) {
    const bool placed = selectionBytes_.first >= 0 && report(static_cast<int>(m));
    heatmaps_[m]->setBrushedSteps(
        placed ? stepsInBytes(located_[m], selectionBytes_.first, selectionBytes_.end)
               : StepRange{-1, -1});
  }
}

void GateInspectorPanel::useSelection(const StepRange& bytes) {
  if (bytes.first < 0 || bytes.empty()) return;
  selectionBytes_ = bytes;
  showBrushes();
  const auto pattern = patternFinder_->pattern();
  if (pattern != PatternFinderView::Pattern::Selection &&
      pattern != PatternFinderView::Pattern::SelectionEverywhere) {
    patternFinder_->setPattern(PatternFinderView::Pattern::Selection);
  }
}

std::vector<double> GateInspectorPanel::patternFor(int model, QString* why) const {
  const std::vector<std::string>& symbols = reports_[static_cast<size_t>(model)]->symbols;
  const auto pattern = patternFinder_->pattern();
  switch (pattern) {
    case PatternFinderView::Pattern::InsideQuotes:
      return insideQuotes(symbols);
    case PatternFinderView::Pattern::AfterSpace:
      return afterSymbol(symbols, " ");
    case PatternFinderView::Pattern::AfterNewline: {
      const bool eos = std::find(symbols.begin(), symbols.end(), "<eos>") != symbols.end();
      return afterSymbol(symbols, eos ? "<eos>" : "\n");
    }
    case PatternFinderView::Pattern::Selection:
    case PatternFinderView::Pattern::SelectionEverywhere:
      break;
  }
  if (selectionBytes_.first < 0) {
    *why = tr("Select part of the text first (in the coloured text or the text box).");
    return {};
  }
  const StepRange steps = stepsInBytes(located_[static_cast<size_t>(model)], selectionBytes_.first,
                                       selectionBytes_.end);
  if (steps.empty()) {
    *why = tr("The selection covers no symbol of model %1's text.").arg(modelLabel(model));
    return {};
  }
  const auto count = static_cast<int64_t>(symbols.size());
  if (pattern == PatternFinderView::Pattern::Selection) return selectedSteps(count, {steps});
  const std::vector<std::string> sequence(symbols.begin() + steps.first,
                                          symbols.begin() + steps.end);
  return selectedSteps(count, occurrences(symbols, sequence));
}

void GateInspectorPanel::findUnits() {
  if (!hasReports()) return;
  const int layer = selectedLayer();
  const QString probe = selectedProbe();
  std::vector<PatternFinderView::Result> results;
  QStringList notes;
  for (int m = 0; m < 2; ++m) {
    const engine::ProbeTrace* t = trace(m, layer, probe);
    if (!report(m) || !t) continue;
    QString why;
    const std::vector<double> pattern = patternFor(m, &why);
    if (pattern.empty()) {
      notes << (why.isEmpty() ? tr("Model %1's text is empty.").arg(modelLabel(m)) : why);
      continue;
    }
    const int64_t marked = markedSteps(pattern);
    const auto steps = static_cast<int64_t>(pattern.size());
    const QString name = PatternFinderView::patternName(patternFinder_->pattern());
    if (marked == 0 || marked == steps) {
      notes << tr("Model %1: \"%2\" holds at %3 of the text's steps, so no unit can follow it.")
                   .arg(modelLabel(m), name, marked == 0 ? tr("none") : tr("all"));
      continue;
    }
    try {
      for (const UnitCorrelation& unit : rankUnits(*t, pattern, kTopUnits)) {
        results.push_back({m, modelLabel(m), unit});
      }
      notes << tr("Model %1: \"%2\" holds at %3 of %4 steps; the %5 best of %6 units of layer %7 "
                  "/ %8.")
                   .arg(modelLabel(m), name)
                   .arg(marked)
                   .arg(steps)
                   .arg(std::min<int64_t>(kTopUnits, t->units))
                   .arg(t->units)
                   .arg(layer)
                   .arg(probe);
    } catch (const std::invalid_argument& error) {
      notes << tr("Model %1: %2").arg(modelLabel(m), QString::fromStdString(error.what()));
    }
  }
  if (results.empty()) {
    patternFinder_->clearResults(notes.join(QLatin1Char('\n')));
  } else {
    patternFinder_->setResults(results, notes.join(QLatin1Char('\n')));
  }
}

void GateInspectorPanel::saveHeatmapFigure(const QString& path) const {
  QCustomPlot* a = heatmaps_[0]->plot();
  if (!heatmaps_[1]->isVisible() || !heatmaps_[1]->hasTrace()) {
    savePlot(path, a);
    return;
  }
  // Both models side by side, as on screen, each drawn as vectors.
  QCustomPlot* b = heatmaps_[1]->plot();
  const QSize size(a->width() + b->width(), std::max(a->height(), b->height()));
  saveFigure(path, size, [a, b](QPaintDevice& device, const QSize&) {
    QCPPainter painter;
    if (!painter.begin(&device)) return;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    a->toPainter(&painter, a->width(), a->height());
    painter.translate(a->width(), 0);
    b->toPainter(&painter, b->width(), b->height());
    painter.end();
  });
}

QByteArray GateInspectorPanel::unitCsv() const {
  QString out = QStringLiteral("model,name,unit,step,symbol,value\n");
  const int model = shownModel();
  const engine::GateReport* r = report(model);
  const engine::ProbeTrace* t = trace(model, selectedLayer(), selectedProbe());
  if (!r || !t) return out.toUtf8();
  const int unit = selectedUnit();
  const QString label = labels_[static_cast<size_t>(model)];
  auto field = [](QString text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n'))) {
      return text;
    }
    text.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + text + QLatin1Char('"');
  };
  const std::vector<float> values = t->floats();
  for (int64_t s = 0; s < t->steps; ++s) {
    const std::string symbol =
        static_cast<size_t>(s) < r->symbols.size() ? r->symbols[static_cast<size_t>(s)] : "";
    out += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
               .arg(field(label), field(QString::fromStdString(t->name)))
               .arg(unit)
               .arg(s)
               .arg(field(QString::fromUtf8(symbol)),
                    QString::number(values[static_cast<size_t>(s * t->units + unit)], 'g', 9));
  }
  return out.toUtf8();
}

}  // namespace mrnn::widgets
