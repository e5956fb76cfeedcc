// The gate inspector on known answers: a hand-built report of the text a"bc"d (probe f, a gate
// with 3 units, unit 2 high exactly inside the quotes and unit 0 constant; probe h, signed)
// checks the heatmap cells, the hover read-out, the text colours and tooltips, the statistics
// table and histogram against figures computed by hand, the pattern builders and the unit
// ranking, the comparison columns and the exports. A tiny mLSTM trained in the test runs the
// real analysis through the job bar (and is cancelled on a long text).

#include <qcustomplot.h>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextCursor>
#include <QTextDocument>
#include <QTreeWidget>
#include <QtTest>

#include <cmath>
#include <memory>
#include <set>

#include "engine/probing/gate_report.h"
#include "file_head.h"
#include "trained_project.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/export/export_bar.h"
#include "widgets/gates/activation_colour_scale.h"
#include "widgets/gates/activation_text_view.h"
#include "widgets/gates/gate_heatmap.h"
#include "widgets/gates/gate_histogram.h"
#include "widgets/gates/gate_inspector_panel.h"
#include "widgets/gates/gate_statistics_table.h"
#include "widgets/gates/pattern_finder_view.h"
#include "widgets/gates/probe_description.h"
#include "widgets/gates/unit_pattern.h"
#include "widgets/project/project_document.h"

using namespace mrnn;
using namespace mrnn::widgets;
using Pattern = PatternFinderView::Pattern;

namespace {

constexpr int kWait = 60000;

// A trace of one layer from per-unit columns (each one value per step).
engine::ProbeTrace makeTrace(const std::string& probe, bool gate,
                             const std::vector<std::vector<float>>& columns) {
  engine::ProbeTrace trace;
  trace.name = "layer1/" + probe;
  trace.layer = 1;
  trace.probe = probe;
  trace.isGate = gate;
  trace.units = static_cast<int64_t>(columns.size());
  trace.steps = static_cast<int64_t>(columns.front().size());
  for (int64_t s = 0; s < trace.steps; ++s) {
    for (const auto& column : columns) trace.values.push_back(column[static_cast<size_t>(s)]);
  }
  return trace;
}

void addStatistics(engine::GateReport& report) {
  report.statistics.clear();
  for (const auto& trace : report.traces) {
    report.statistics.push_back(engine::gateStatistics(trace.name, trace.isGate, trace.values));
  }
}

// a"bc"d: f unit 0 constant 0.5, unit 1 a ramp, unit 2 0.9 inside the quotes and 0.1 outside;
// h unit 0 alternating -0.5/0.5, unit 1 0.6 inside the quotes and 0 outside.
engine::GateReport quoteReport() {
  engine::GateReport report;
  report.symbols = {"a", "\"", "b", "c", "\"", "d"};
  report.traces.push_back(makeTrace("f", true,
                                    {{0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f},
                                     {0.0f, 0.2f, 0.4f, 0.6f, 0.8f, 1.0f},
                                     {0.1f, 0.1f, 0.9f, 0.9f, 0.1f, 0.1f}}));
  report.traces.push_back(makeTrace(
      "h", false, {{-0.5f, 0.5f, -0.5f, 0.5f, -0.5f, 0.5f}, {0.0f, 0.0f, 0.6f, 0.6f, 0.0f, 0.0f}}));
  addStatistics(report);
  return report;
}

// Model B on the same text: every f value 0.5, and a probe c A does not have.
engine::GateReport comparisonReport() {
  engine::GateReport report;
  report.symbols = {"a", "\"", "b", "c", "\"", "d"};
  const std::vector<float> half(6, 0.5f);
  report.traces.push_back(makeTrace("f", true, {half, half, half}));
  report.traces.push_back(makeTrace("c", false, {{1.0f, -1.0f, 2.0f, -2.0f, 0.0f, 0.0f}}));
  addStatistics(report);
  return report;
}

QString firstLine(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readLine()).trimmed();
}

void moveMouse(QWidget* widget, const QPointF& position) {
  QMouseEvent event(QEvent::MouseMove, position, widget->mapToGlobal(position), Qt::NoButton,
                    Qt::NoButton, Qt::NoModifier);
  QCoreApplication::sendEvent(widget, &event);
}

// A move with the left button held and Shift down (a brush in progress).
void dragMouse(QWidget* widget, const QPointF& position) {
  QMouseEvent event(QEvent::MouseMove, position, widget->mapToGlobal(position), Qt::NoButton,
                    Qt::LeftButton, Qt::ShiftModifier);
  QCoreApplication::sendEvent(widget, &event);
}

// The lexicon text with some words quoted, so that '"' is in the model's vocabulary.
std::string quotedCorpus(int symbols) {
  std::string text = test::lexiconText(symbols);
  std::string out;
  size_t from = 0;
  for (size_t at = text.find("cat"); at != std::string::npos; at = text.find("cat", from)) {
    out += text.substr(from, at - from) + "\"cat\"";
    from = at + 3;
  }
  return out + text.substr(from);
}

QStringList rowTexts(const QTableWidget* table, int row) {
  QStringList texts;
  for (int c = 0; c < table->columnCount(); ++c) {
    texts << (table->item(row, c) ? table->item(row, c)->text() : QString());
  }
  return texts;
}

}  // namespace

class GateInspectorTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    trained_ =
        std::make_unique<test::TrainedProject>(test::tinyProjectYaml(40), quotedCorpus(6000));
    QVERIFY2(trained_->ok(), qPrintable(trained_->error()));
    // A second, briefly trained model of the same vocabulary to compare with.
    other_ = std::make_unique<test::TrainedProject>(test::tinyProjectYaml(6), quotedCorpus(6000));
    QVERIFY2(other_->ok(), qPrintable(other_->error()));
    document_ = std::make_unique<ProjectDocument>();
    document_->load(trained_->projectFile());
  }

  void patternBuildersAreExact() {
    const std::vector<std::string> symbols{"a", "\"", "b", "c", "\"", "d"};
    QCOMPARE(insideQuotes(symbols), (std::vector<double>{0, 0, 1, 1, 0, 0}));
    // Typographic quotes, and an unclosed quote runs to the end.
    QCOMPARE(insideQuotes({"\xE2\x80\x9C", "x", "\xE2\x80\x9D", "y", "\"", "z"}),
             (std::vector<double>{0, 1, 0, 0, 0, 1}));
    const std::vector<std::string> spaced{"a", " ", "b", "c", " ", " ", "\n", "d"};
    QCOMPARE(afterSymbol(spaced, " "), (std::vector<double>{0, 0, 1, 0, 0, 1, 1, 0}));
    QCOMPARE(afterSymbol(spaced, "\n"), (std::vector<double>{0, 0, 0, 0, 0, 0, 0, 1}));
    QCOMPARE(selectedSteps(6, {{1, 3}, {5, 9}, {-2, 0}}), (std::vector<double>{0, 1, 1, 0, 0, 1}));
    QCOMPARE(occurrences({"a", "b", "a", "b", "a"}, {"a", "b"}),
             (std::vector<StepRange>{{0, 2}, {2, 4}}));
    QCOMPARE(occurrences({"a", "a", "a"}, {"a", "a"}), (std::vector<StepRange>{{0, 2}}));
    QCOMPARE(markedSteps({0, 1, 1, 0}), int64_t{2});
  }

  void symbolsAreLocatedInTheText() {
    // Characters (UTF-8: 'é' takes two bytes).
    QCOMPARE(locateSymbols("a\xC3\xA9 b", {"a", "\xC3\xA9", " ", "b"}),
             (std::vector<StepRange>{{0, 1}, {1, 3}, {3, 4}, {4, 5}}));
    // Words: blanks between them, <eos> for a line break, <unk> for an unknown word.
    QCOMPARE(locateSymbols("the  cat\nzzz ran", {"the", "cat", "<eos>", "<unk>", "ran"}),
             (std::vector<StepRange>{{0, 3}, {5, 8}, {8, 9}, {9, 12}, {13, 16}}));
    const auto located = locateSymbols("ab cd", {"a", "b", " ", "c", "d"});
    QCOMPARE(stepsInBytes(located, 1, 4), (StepRange{1, 4}));
    QVERIFY(stepsInBytes(located, 2, 2).empty());
    QCOMPARE(bytesOfSteps(located, {3, 5}), (StepRange{3, 5}));
    // Characters (one code point each, 'é' too) or words; the text they stand for.
    QVERIFY(!symbolsAreWords({"a", "\xC3\xA9", "\n"}));
    QVERIFY(symbolsAreWords({"the", "a", "<eos>"}));
    QCOMPARE(textOfSymbols({"a", " ", "\n", "b"}), std::string("a \nb"));
    QCOMPARE(textOfSymbols({"the", "cat", "<eos>", "sat"}), std::string("the cat\nsat"));
  }

  void rankUnitsFindsTheQuoteUnit() {
    const engine::GateReport report = quoteReport();
    const auto ranked = rankUnits(report.traces[0], insideQuotes(report.symbols));
    QCOMPARE(ranked.size(), size_t{3});
    QCOMPARE(ranked[0].unit, int64_t{2});
    QCOMPARE(ranked[0].correlation, 1.0);
    QCOMPARE(ranked[0].meanInside, static_cast<double>(0.9f));
    QCOMPARE(ranked[0].meanOutside, static_cast<double>(0.1f));
    for (const UnitCorrelation& unit : ranked) {
      if (unit.unit == 0) QCOMPARE(unit.correlation, 0.0);  // constant: exactly 0
    }
    // Low inside the quotes is as good a follower: r = -1 ranks first too.
    engine::ProbeTrace inverted = makeTrace("f", true, {{0.7f, 0.7f, 0.2f, 0.2f, 0.7f, 0.7f}});
    QCOMPARE(rankUnits(inverted, insideQuotes(report.symbols))[0].correlation, -1.0);
    QCOMPARE(rankUnits(report.traces[0], insideQuotes(report.symbols), 1).size(), size_t{1});
    QVERIFY_EXCEPTION_THROWN(rankUnits(report.traces[0], {1, 0}), std::invalid_argument);
  }

  void heatmapHoldsTheTraceValues() {
    GateInspectorPanel panel(*document_);
    const engine::GateReport report = quoteReport();
    panel.showReports(report);
    QCOMPARE(panel.layerCombo()->count(), 1);
    QCOMPARE(panel.probeCombo()->count(), 2);
    QCOMPARE(panel.selectedProbe(), QString("f"));  // the forget gate comes first
    QCOMPARE(panel.probeCombo()->itemData(0, Qt::ToolTipRole).toString(), QString("forget gate"));
    QCOMPARE(probeDescription("major.c"), QString("major state: memory cell"));
    QCOMPARE(probeDescription("x2"), QString("Mogrifier round 2 (input after modulation)"));
    panel.selectProbe(1, "f");
    const QCPColorMap* map = panel.heatmap()->colorMap();
    QCOMPARE(map->data()->keySize(), 6);
    QCOMPARE(map->data()->valueSize(), 3);
    for (int s = 0; s < 6; ++s) {
      for (int u = 0; u < 3; ++u) {
        QCOMPARE(map->data()->cell(s, u), static_cast<double>(report.traces[0].at(s, u)));
      }
    }
    // Gates on a fixed [0, 1]; signed probes symmetric around 0 (largest |h| is 0.6).
    QCOMPARE(map->dataRange().lower, 0.0);
    QCOMPARE(map->dataRange().upper, 1.0);
    // The colour bar's title is words, and nothing pops up over the cells being read.
    QCOMPARE(panel.heatmap()->colorScale()->axis()->label(), QString("f value"));
    QVERIFY(panel.heatmap()->plot()->toolTip().isEmpty());
    panel.selectProbe(1, "h");
    QCOMPARE(map->data()->valueSize(), 2);
    QCOMPARE(map->dataRange().upper, static_cast<double>(0.6f));
    QCOMPARE(map->dataRange().lower, -static_cast<double>(0.6f));
    QVERIFY(!panel.comparisonHeatmap()->isVisible());
  }

  void hoverReadsOutAndClickSelectsTheUnit() {
    GateInspectorPanel panel(*document_);
    panel.resize(1200, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.showReports(quoteReport());
    GateHeatmap* heatmap = panel.heatmap();
    heatmap->plot()->replot();
    QCOMPARE(heatmap->hoverText(4, 2), QString("step 4 '\"' · unit 2 · f = 0.100"));
    QCOMPARE(heatmap->hoverText(2, 2), QString("step 2 'b' · unit 2 · f = 0.900"));
    moveMouse(heatmap->plot(), heatmap->cellCentre(3, 1));
    QCOMPARE(heatmap->readout()->text(), QString("step 3 'c' · unit 1 · f = 0.600"));
    int step = -1;
    int unit = -1;
    QVERIFY(heatmap->cellAt(heatmap->cellCentre(5, 0), &step, &unit));
    QCOMPARE(step, 5);
    QCOMPARE(unit, 0);
    QVERIFY(!heatmap->cellAt(QPointF(1, 1), &step, &unit));

    QTest::mouseClick(heatmap->plot(), Qt::LeftButton, {}, heatmap->cellCentre(2, 2).toPoint());
    QCOMPARE(panel.selectedUnit(), 2);
    QCOMPARE(heatmap->selectedUnit(), 2);
    QCOMPARE(panel.textView()->description(), QString("layer1/f unit 2"));
  }

  // LSTMVis' select-and-match: Shift+drag over the map selects the steps' text and ranks the
  // units that follow the selection; a selection in the text is marked on the maps.
  void brushingTheMapSelectsTheTextAndRanksItsUnits() {
    GateInspectorPanel panel(*document_);
    panel.resize(1200, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.showReports(quoteReport(), comparisonReport());
    panel.selectProbe(1, "f");
    GateHeatmap* heatmap = panel.heatmap();
    heatmap->plot()->replot();
    const QCPRange before = heatmap->plot()->xAxis->range();
    QWidget* plot = heatmap->plot();
    QTest::mousePress(plot, Qt::LeftButton, Qt::ShiftModifier, heatmap->cellCentre(2, 0).toPoint());
    dragMouse(plot, heatmap->cellCentre(3, 1));
    QCOMPARE(heatmap->readout()->text(), QString("steps 2 to 3 selected"));
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::ShiftModifier,
                        heatmap->cellCentre(3, 1).toPoint());
    QCOMPARE(heatmap->brushedSteps(), (StepRange{2, 4}));
    // A brush, not a pan, and not a click on a unit.
    QCOMPARE(heatmap->plot()->xAxis->range().lower, before.lower);
    QCOMPARE(heatmap->plot()->xAxis->range().upper, before.upper);
    QCOMPARE(panel.textView()->selectedSteps(), (StepRange{2, 4}));
    QCOMPARE(panel.textView()->textCursor().selectedText(), QString("bc"));
    QCOMPARE(panel.patternSelection(), (StepRange{2, 4}));
    QCOMPARE(panel.patternFinder()->pattern(), Pattern::Selection);
    // The units ranked by how well they follow the brushed steps: unit 2 exactly.
    QTreeWidget* list = panel.patternResults();
    QVERIFY(list->topLevelItemCount() > 0);
    QCOMPARE(list->topLevelItem(0)->text(1), QString("2"));
    QCOMPARE(list->topLevelItem(0)->text(2), QString("1.000"));
    // Model B's map marks the same text.
    QCOMPARE(panel.comparisonHeatmap()->brushedSteps(), (StepRange{2, 4}));

    // The other way: selecting text marks the maps, and the mark stays across probes.
    panel.textView()->selectSteps({4, 6});
    QCOMPARE(heatmap->brushedSteps(), (StepRange{4, 6}));
    panel.selectProbe(1, "h");
    QCOMPARE(heatmap->brushedSteps(), (StepRange{4, 6}));
    // New reports forget the old selection.
    panel.showReports(quoteReport());
    QCOMPARE(heatmap->brushedSteps(), (StepRange{-1, -1}));
  }

  // The text under the map: symbols along the time axis wherever they fit, step numbers
  // where they do not (a long text seen whole), symbols again when zoomed in.
  void timeAxisNamesTheSymbolsWhereTheyFit() {
    GateHeatmap heatmap;
    heatmap.resize(800, 400);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    engine::GateReport report = quoteReport();
    heatmap.setTrace(report.traces[0], report.symbols,
                     ActivationColourScale::forTraces({&report.traces[0]}), "six steps");
    heatmap.plot()->replot();
    QVERIFY(heatmap.showsSymbolTicks());
    QCOMPARE(heatmap.plot()->xAxis->label(), QString("symbol (time step)"));

    std::vector<std::string> symbols;
    std::vector<float> column;
    for (int t = 0; t < 3000; ++t) {
      symbols.push_back(std::string(1, static_cast<char>('a' + t % 26)));
      column.push_back(static_cast<float>(t % 7) / 7.0f);
    }
    const engine::ProbeTrace longTrace = makeTrace("f", true, {column});
    heatmap.setTrace(longTrace, symbols, ActivationColourScale::forTraces({&longTrace}), "long");
    heatmap.plot()->replot();
    QVERIFY(!heatmap.showsSymbolTicks());
    QVERIFY(heatmap.plot()->xAxis->label().contains("zoom in"));
    heatmap.plot()->xAxis->setRange(99.5, 119.5);  // 20 steps in the map's width
    heatmap.plot()->replot();
    QVERIFY(heatmap.showsSymbolTicks());
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(heatmap.plot()->xAxis->ticker().data());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(100), QString("w"));  // 100 % 26 = 22: 'w'
  }

  void textIsColouredByTheUnit() {
    GateInspectorPanel panel(*document_);
    panel.showReports(quoteReport());
    panel.selectProbe(1, "f");
    panel.selectUnit(2);
    ActivationTextView* view = panel.textView();
    QCOMPARE(view->stepCount(), 6);
    QCOMPARE(view->toPlainText(), QString("a\"bc\"d"));
    const ActivationColourScale scale = ActivationColourScale::gate();
    QCOMPARE(view->backgroundAt(2), scale.colour(0.9f));
    QCOMPARE(view->backgroundAt(0), scale.colour(0.1f));
    QVERIFY(view->backgroundAt(2) != view->backgroundAt(0));
    // White to dark orange: 0.9 is darker than 0.1, and its text turns white to stay legible.
    QVERIFY(view->backgroundAt(2).lightness() < view->backgroundAt(0).lightness());
    QCOMPARE(view->foregroundAt(2), scale.textColour(0.9f));
    QCOMPARE(view->toolTipFor(3), QString("step 3 'c' · layer1/f unit 2 = 0.900"));
    QCOMPARE(view->toolTipFor(0), QString("step 0 'a' · layer1/f unit 2 = 0.100"));
    QVERIFY(panel.textLegend()->text().contains("unit 2"));

    // A signed probe: blue below zero, red above, white at zero.
    panel.selectProbe(1, "h");
    panel.selectUnit(0);
    QVERIFY(!view->scale().isGate());
    QVERIFY(view->backgroundAt(0).blue() > view->backgroundAt(0).red());
    QVERIFY(view->backgroundAt(1).red() > view->backgroundAt(1).blue());
    panel.selectUnit(1);
    QCOMPARE(view->backgroundAt(0), QColor(255, 255, 255));
    QCOMPARE(view->backgroundAt(2), view->scale().colour(0.6f));
    QCOMPARE(view->backgroundAt(2), QColor(103, 0, 31));  // the top of the scale
  }

  void lineBreaksStayVisible() {
    ActivationTextView view;
    view.resize(400, 200);
    view.setSymbols({"a", "\n", "b", "\t", "c"});
    QCOMPARE(view.toPlainText(), QString("a\u21B5\nb\u21E5c"));
    QCOMPARE(view.document()->blockCount(), 2);
    view.setValues({0.0f, 1.0f, 0.0f, 0.0f, 0.0f}, ActivationColourScale::gate(), "u");
    QCOMPARE(view.backgroundAt(1), ActivationColourScale::gate().colour(1.0));
    QCOMPARE(view.toolTipFor(1), QString("step 1 '\u21B5' · u = 1.000"));
    // Words are set apart by plain spaces; <eos> breaks the line.
    view.setSymbols({"the", "cat", "<eos>", "sat"});
    QCOMPARE(view.toPlainText(), QString("the cat \u21B5\nsat"));
    QCOMPARE(view.span(1).begin, 4);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.stepAt(view.stepRect(3).center()), 3);
    QCOMPARE(view.stepAt(view.stepRect(1).center()), 1);
  }

  void statisticsTableMatchesHandFigures() {
    GateInspectorPanel panel(*document_);
    panel.showReports(quoteReport());
    const GateStatisticsTable* table = panel.statisticsTable();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->columnCount(), 5);
    // f: 18 values summing to 8.2; squared deviations 1.624444; 0 and 1 are saturated.
    QCOMPARE(rowTexts(table, table->rowOf("layer1/f")),
             (QStringList{"layer1/f", "yes", "0.456", "0.090", "0.111"}));
    // h: mean 1.2 / 12 = 0.1, variance 2.1 / 12 = 0.175; no saturation for a signed probe.
    QCOMPARE(rowTexts(table, table->rowOf("layer1/h")),
             (QStringList{"layer1/h", "no", "0.100", "0.175", "\u2014"}));
    const QString csv = QString::fromUtf8(table->csv());
    QVERIFY(
        csv.startsWith("model,name,layer,probe,is_gate,mean,variance,saturated_fraction,count\n"));
    QCOMPARE(csv.count('\n'), 3);
    QVERIFY(csv.contains(",layer1/f,1,f,1,0.4555555"));
  }

  void histogramCountsTheBins() {
    GateInspectorPanel panel(*document_);
    panel.showReports(quoteReport());
    panel.selectProbe(1, "f");
    const GateHistogram* histogram = panel.histogram();
    QCOMPARE(histogram->lower(), 0.0);
    QCOMPARE(histogram->upper(), 1.0);
    // Bins of 0.025: 0 -> 0, 0.1f -> 4, 0.2f -> 8, 0.4f -> 16, 0.5 -> 20, 0.6f -> 24,
    // 0.8f -> 32, 0.9f (just below 0.9) -> 35, 1 -> the last bin.
    std::vector<int64_t> expected(GateHistogram::kBins, 0);
    expected[0] = 1;
    expected[4] = 4;
    expected[8] = 1;
    expected[16] = 1;
    expected[20] = 6;
    expected[24] = 1;
    expected[32] = 1;
    expected[35] = 2;
    expected[39] = 1;
    QCOMPARE(histogram->counts(0), expected);
    QCOMPARE(histogram->bars(0)->data()->size(), GateHistogram::kBins);
    QCOMPARE(histogram->bars(0)->data()->at(20)->value, 6.0 / 18.0);
    QCOMPARE(histogram->bars(0)->data()->at(20)->key, 0.5125);
    QVERIFY(!histogram->bars(1)->visible());
    // A signed probe spans its values.
    panel.selectProbe(1, "h");
    QCOMPARE(histogram->lower(), -0.5);
    QCOMPARE(histogram->upper(), static_cast<double>(0.6f));
    QCOMPARE(GateHistogram::binCounts({0.0f, 0.5f, 1.0f, 2.0f, -1.0f, NAN}, 0.0, 1.0, 2),
             (std::vector<int64_t>{2, 3}));
  }

  void comparisonShowsBothModels() {
    GateInspectorPanel panel(*document_);
    panel.resize(1200, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.showReports(quoteReport(), comparisonReport());
    QVERIFY(panel.comparisonHeatmap()->isVisible());
    QVERIFY(panel.textModelCombo()->isVisible());
    QCOMPARE(panel.probeCombo()->count(), 3);  // f, h and B's c
    const GateStatisticsTable* table = panel.statisticsTable();
    QCOMPARE(table->columnCount(), 11);
    QCOMPARE(table->horizontalHeaderItem(2)->text(), QString("Mean A"));
    QCOMPARE(table->horizontalHeaderItem(3)->text(), QString("Mean B"));
    QCOMPARE(table->horizontalHeaderItem(4)->text(), QString("\u0394 Mean"));
    QCOMPARE(rowTexts(table, table->rowOf("layer1/f")),
             (QStringList{"layer1/f", "yes", "0.456", "0.500", "+0.044", "0.090", "0.000", "-0.090",
                          "0.111", "0.000", "-0.111"}));
    // Probes one model lacks leave the other's cells empty.
    const QStringList c = rowTexts(table, table->rowOf("layer1/c"));
    QCOMPARE(c[2], QString());
    QCOMPARE(c[3], QString("0.000"));
    QCOMPARE(c[4], QString());
    QCOMPARE(QString::fromUtf8(table->csv()).count('\n'), 1 + 2 + 2);

    panel.selectProbe(1, "f");
    QCOMPARE(panel.comparisonHeatmap()->colorMap()->data()->cell(2, 2), 0.5);
    QCOMPARE(panel.histogram()->counts(1)[20], int64_t{18});
    QVERIFY(panel.histogram()->bars(1)->visible());
    // B's heatmap click colours the text by B's unit.
    panel.comparisonHeatmap()->plot()->replot();
    QTest::mouseClick(panel.comparisonHeatmap()->plot(), Qt::LeftButton, {},
                      panel.comparisonHeatmap()->cellCentre(1, 1).toPoint());
    QCOMPARE(panel.shownModel(), 1);
    QCOMPARE(panel.selectedUnit(), 1);
    QCOMPARE(panel.textView()->backgroundAt(0), ActivationColourScale::gate().colour(0.5));
    QCOMPARE(panel.heatmap()->selectedUnit(), -1);
    // A probe only B has: A's map says so.
    panel.selectProbe(1, "c");
    QVERIFY(!panel.heatmap()->hasTrace());
    QVERIFY(panel.heatmap()->title().contains("has no probe c"));
    QVERIFY(panel.comparisonHeatmap()->hasTrace());
  }

  void findsTheUnitsThatFollowAPattern() {
    GateInspectorPanel panel(*document_);
    panel.showReports(quoteReport());
    panel.selectProbe(1, "f");
    panel.setPattern(Pattern::InsideQuotes);
    panel.findUnits();
    QTreeWidget* list = panel.patternResults();
    QCOMPARE(list->topLevelItemCount(), 3);
    QCOMPARE(list->topLevelItem(0)->text(1), QString("2"));
    QCOMPARE(list->topLevelItem(0)->text(2), QString("1.000"));
    QCOMPARE(list->topLevelItem(0)->text(3), QString("0.900"));
    QCOMPARE(list->topLevelItem(0)->text(4), QString("0.100"));
    bool sawConstant = false;
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
      if (list->topLevelItem(i)->text(1) == "0") {
        QCOMPARE(list->topLevelItem(i)->text(2), QString("0.000"));
        sawConstant = true;
      }
    }
    QVERIFY(sawConstant);
    QVERIFY(panel.patternFinder()->note().contains("holds at 2 of 6 steps"));
    // Choosing a result shows that unit.
    panel.selectUnit(0);
    emit list->itemClicked(list->topLevelItem(0), 0);
    QCOMPARE(panel.selectedUnit(), 2);
    QCOMPARE(panel.heatmap()->selectedUnit(), 2);
    // The results follow the probe shown: h unit 1 is 0.6 inside the quotes, 0 outside.
    panel.selectProbe(1, "h");
    QCOMPARE(list->topLevelItemCount(), 2);
    QCOMPARE(list->topLevelItem(0)->text(1), QString("1"));
    QCOMPARE(list->topLevelItem(0)->text(2), QString("1.000"));
    panel.selectProbe(1, "f");

    // After a space: the text has none, and the panel says so.
    panel.setPattern(Pattern::AfterSpace);
    panel.findUnits();
    QCOMPARE(list->topLevelItemCount(), 0);
    QVERIFY(panel.patternFinder()->note().contains("none"));

    // A selection in the coloured text is the pattern.
    panel.setPattern(Pattern::Selection);
    panel.findUnits();
    QVERIFY(panel.patternFinder()->note().contains("Select part of the text"));
    panel.setPattern(Pattern::InsideQuotes);
    panel.textView()->selectSteps({2, 4});
    QCOMPARE(panel.patternSelection(), (StepRange{2, 4}));
    QCOMPARE(panel.patternFinder()->pattern(), Pattern::Selection);  // switched by selecting
    panel.findUnits();
    QCOMPARE(list->topLevelItem(0)->text(1), QString("2"));
    QCOMPARE(list->topLevelItem(0)->text(2), QString("1.000"));
    // Every occurrence of the selected quote.
    panel.textView()->selectSteps({1, 2});
    panel.setPattern(Pattern::SelectionEverywhere);
    panel.findUnits();
    QVERIFY(panel.patternFinder()->note().contains("holds at 2 of 6 steps"));

    // The text box selects too while it holds the analysed text.
    panel.setText("a\"bc\"d");
    QTextCursor cursor = panel.textEdit()->textCursor();
    cursor.setPosition(3);
    cursor.setPosition(6, QTextCursor::KeepAnchor);
    panel.textEdit()->setTextCursor(cursor);
    QCOMPARE(panel.patternSelection(), (StepRange{3, 6}));
    panel.setText("something else");
    cursor = panel.textEdit()->textCursor();
    cursor.setPosition(0);
    cursor.setPosition(2, QTextCursor::KeepAnchor);
    panel.textEdit()->setTextCursor(cursor);
    QCOMPARE(panel.patternSelection(), (StepRange{3, 6}));  // unchanged
  }

  void exportsFiguresAndNumbers() {
    GateInspectorPanel panel(*document_);
    panel.resize(1200, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(!panel.heatmapExport()->figureButton()->isEnabled());
    panel.showReports(quoteReport(), comparisonReport());
    QVERIFY(panel.heatmapExport()->figureButton()->isEnabled());
    QTemporaryDir dir;
    const QList<std::pair<QString, QByteArray>> formats{{"png", QByteArray("\x89PNG", 4)},
                                                        {"svg", QByteArray("<?xml")},
                                                        {"pdf", QByteArray("%PDF")}};
    for (const auto& [suffix, magic] : formats) {
      const QString heatmap = dir.filePath("heatmap." + suffix);
      QCOMPARE(panel.heatmapExport()->saveFigureTo(heatmap), QString());
      QCOMPARE(test::fileHead(heatmap, magic.size()), magic);
      const QString histogram = dir.filePath("histogram." + suffix);
      QCOMPARE(panel.statisticsExport()->saveFigureTo(histogram), QString());
      QCOMPARE(test::fileHead(histogram, magic.size()), magic);
    }
    // Both heatmaps side by side: twice a plot's width (PNG at double resolution).
    const QImage image(dir.filePath("heatmap.png"));
    QCOMPARE(image.width(),
             2 * (panel.heatmap()->plot()->width() + panel.comparisonHeatmap()->plot()->width()));
    QCOMPARE(panel.textExport()->saveFigureTo(dir.filePath("text.png")), QString());
    QVERIFY(!QImage(dir.filePath("text.png")).isNull());

    QCOMPARE(panel.heatmapExport()->saveCsvTo(dir.filePath("values.csv")), QString());
    QCOMPARE(firstLine(dir.filePath("values.csv")),
             QString("name,layer,probe,is_gate,step,symbol,unit,value"));
    QFile values(dir.filePath("values.csv"));
    QVERIFY(values.open(QIODevice::ReadOnly));
    QCOMPARE(values.readAll().count('\n'), 1 + 6 * 3 + 6 * 2);  // model A's f and h
    QCOMPARE(panel.statisticsExport()->saveCsvTo(dir.filePath("stats.csv")), QString());
    QCOMPARE(firstLine(dir.filePath("stats.csv")),
             QString("model,name,layer,probe,is_gate,mean,variance,saturated_fraction,count"));
    panel.selectProbe(1, "f");
    panel.selectUnit(2);
    QCOMPARE(panel.textExport()->saveCsvTo(dir.filePath("unit.csv")), QString());
    QFile unit(dir.filePath("unit.csv"));
    QVERIFY(unit.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(unit.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 7);
    QCOMPARE(lines[0], QString("model,name,unit,step,symbol,value"));
    QVERIFY2(lines[3].endsWith(",layer1/f,2,2,b,0.899999976"), qPrintable(lines[3]));
  }

  void recordsARealModel() {
    GateInspectorPanel panel(*document_);
    panel.resize(1400, 950);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setCheckpoint(trained_->bestCheckpoint());
    QCOMPARE(panel.modelChooser()->checkpoint(),
             QFileInfo(trained_->bestCheckpoint()).absoluteFilePath());
    const QString text =
        "the cat sat on a mat and \"the dog ran\" to its red ball.\nthen the \"cat\" slept";
    panel.setText(text);
    QSignalSpy finished(&panel, &GateInspectorPanel::analysisFinished);
    panel.runButton()->click();
    QVERIFY(!panel.runButton()->isEnabled());
    QVERIFY(finished.wait(kWait));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QVERIFY(panel.runButton()->isEnabled());

    const engine::GateReport* report = panel.report(0);
    QVERIFY(report);
    QCOMPARE(report->symbols.size(), static_cast<size_t>(text.size()));
    std::set<std::string> probes;
    for (const auto& trace : report->traces) {
      probes.insert(trace.probe);
      QCOMPARE(trace.steps, static_cast<int64_t>(text.size()));
      QCOMPARE(trace.units, int64_t{16});
    }
    QStringList names;
    for (const auto& probe : probes) names << QString::fromStdString(probe);
    qInfo("mLSTM probes: %s", qPrintable(names.join(' ')));
    for (const char* expected : {"m", "i", "f", "o", "h"}) {
      QVERIFY2(probes.count(expected), expected);
    }
    QCOMPARE(panel.probeCombo()->count(), static_cast<int>(probes.size()));
    QCOMPARE(panel.statisticsTable()->rowCount(), static_cast<int>(report->traces.size()));
    QCOMPARE(panel.selectedProbe(), QString("f"));
    QCOMPARE(panel.heatmap()->steps(), static_cast<int>(text.size()));
    QCOMPARE(panel.heatmap()->units(), 16);
    QCOMPARE(panel.textView()->stepCount(), static_cast<int>(text.size()));
    QCOMPARE(panel.textView()->document()->blockCount(), 2);
    panel.setPattern(Pattern::InsideQuotes);
    panel.findUnits();
    QCOMPARE(panel.patternResults()->topLevelItemCount(), 16);
    emit panel.patternResults()->itemClicked(panel.patternResults()->topLevelItem(0), 0);

    // Another model as B, from a file outside the project.
    panel.setComparisonCheckpoint(other_->bestCheckpoint());
    finished.clear();
    panel.runAnalysis();
    QVERIFY(finished.wait(kWait));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QVERIFY(panel.report(1));
    QVERIFY(panel.comparisonHeatmap()->hasTrace());
    QCOMPARE(panel.statisticsTable()->columnCount(), 11);
    QVERIFY(panel.statisticsTable()->item(0, 2)->text() !=
            panel.statisticsTable()->item(0, 3)->text());
    panel.findUnits();
    QCOMPARE(panel.patternResults()->topLevelItemCount(), 32);
    panel.grab().save("/tmp/gates.png");
    panel.selectProbe(1, "h");
    panel.selectUnit(3);
    panel.grab().save("/tmp/gates_h.png");
    panel.tabs()->setCurrentIndex(1);
    panel.grab().save("/tmp/gates_statistics.png");

    // A symbol the model never saw fails in words.
    panel.setComparisonCheckpoint(QString());
    panel.setText("The Cat");
    QSignalSpy failed(panel.jobBar(), &AnalysisJobBar::failed);
    finished.clear();
    panel.runAnalysis();
    QVERIFY(finished.wait(kWait));
    QCOMPARE(finished.first().first().toBool(), false);
    // Every symbol it cannot read, named at once (one a try, a user once met them one by one).
    QVERIFY2(failed.first().first().toString().contains(
                 "model A cannot read the text: symbols 'T' at byte 0 and 'C' at byte 4 are not "
                 "in the vocabulary"),
             qPrintable(failed.first().first().toString()));
    QVERIFY(panel.report(1));  // the last results stay
  }

  // The models can read the start of a held-out split of their project, as Surprisal's can;
  // text without quotes turns the unit search from "inside quotes" to "after a space".
  void aHeldOutSplitIsReadAndTextWithoutQuotesSearchesWordStarts() {
    GateInspectorPanel panel(*document_);
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.textSource()->setCurrentIndex(panel.textSource()->findData(QStringLiteral("test")));
    QVERIFY(panel.textEdit()->isReadOnly());
    QSignalSpy finished(&panel, &GateInspectorPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(finished.wait(kWait));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    const QString shown = panel.text();
    QVERIFY(shown.size() >= 100);
    QVERIFY(QString::fromStdString(quotedCorpus(6000)).contains(shown));
    QCOMPARE(panel.report(0)->symbols.size(), static_cast<size_t>(shown.size()));
    QVERIFY2(panel.jobBar()->status().contains("start of the project's test split"),
             qPrintable(panel.jobBar()->status()));

    panel.textSource()->setCurrentIndex(0);
    QVERIFY(!panel.textEdit()->isReadOnly());
    panel.setPattern(Pattern::InsideQuotes);
    panel.setText("the dog sat on the mat\nand the bird sang");
    finished.clear();
    panel.runAnalysis();
    QVERIFY(finished.wait(kWait));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QCOMPARE(panel.patternFinder()->pattern(), Pattern::AfterSpace);
    QVERIFY2(panel.patternFinder()->note().contains("no quotes"),
             qPrintable(panel.patternFinder()->note()));
  }

  // The example passage has capitals, which this lower-case model never saw: it is shown the
  // start of its own validation text instead, and told so; a text the user wrote stays theirs.
  void exampleAModelCannotReadGivesWayToValidationText() {
    GateInspectorPanel panel(*document_);
    const QString example = panel.text();
    QVERIFY(example.contains('T'));
    panel.setCheckpoint(trained_->bestCheckpoint());
    QSignalSpy finished(&panel, &GateInspectorPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(finished.wait(kWait));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    const QString shown = panel.text();
    QVERIFY(shown.size() >= 100);
    QVERIFY(QString::fromStdString(quotedCorpus(6000)).contains(shown));
    QCOMPARE(panel.report(0)->symbols.size(), static_cast<size_t>(shown.size()));
    QVERIFY2(panel.jobBar()->status().contains("start of the project's validation text"),
             qPrintable(panel.jobBar()->status()));

    panel.setText(example + " ");
    finished.clear();
    panel.runAnalysis();
    QVERIFY(finished.wait(kWait));
    QCOMPARE(finished.first().first().toBool(), false);
    QCOMPARE(panel.text(), example + " ");
    QVERIFY2(panel.jobBar()->status().contains("cannot read the text: symbols 'T' at byte 0"),
             qPrintable(panel.jobBar()->status()));
  }

  void cancelsALongRun() {
    GateInspectorPanel panel(*document_);
    panel.setText(QString::fromStdString(quotedCorpus(150000)));
    QSignalSpy finished(&panel, &GateInspectorPanel::analysisFinished);
    panel.runAnalysis();
    QTRY_VERIFY_WITH_TIMEOUT(panel.jobBar()->status().contains("recording"), kWait);
    panel.jobBar()->cancelButton()->click();
    QVERIFY(finished.wait(kWait));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY2(panel.jobBar()->status().contains("cancelled"), qPrintable(panel.jobBar()->status()));
    QVERIFY(!panel.hasReports());
    QVERIFY(panel.runButton()->isEnabled());

    // Closing the panel mid-run stops the job; the models it holds outlive the panel.
    auto closing = std::make_unique<GateInspectorPanel>(*document_);
    closing->setText(QString::fromStdString(quotedCorpus(150000)));
    closing->runAnalysis();
    QTRY_VERIFY_WITH_TIMEOUT(closing->jobBar()->status().contains("recording"), kWait);
    closing.reset();
  }

  void withoutACheckpointItSaysSo() {
    ProjectDocument untitled;
    GateInspectorPanel panel(untitled);
    QSignalSpy failed(panel.jobBar(), &AnalysisJobBar::failed);
    panel.runAnalysis();
    QVERIFY(failed.wait(kWait));
    QVERIFY(failed.first().first().toString().contains("no checkpoint chosen"));
  }

 private:
  std::unique_ptr<test::TrainedProject> trained_;
  std::unique_ptr<test::TrainedProject> other_;
  std::unique_ptr<ProjectDocument> document_;
};

QTEST_MAIN(GateInspectorTest)
#include "test_gate_inspector.moc"
