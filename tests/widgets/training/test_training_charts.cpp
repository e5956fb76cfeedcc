// The monitor's charts with several runs: where the legend sits, hiding a run from it, the
// read-out across runs under the mouse, overlays drawn dashed, and the figure and CSV export.
#include <qcustomplot.h>
#include <QTemporaryDir>
#include <QtTest>

#include <limits>

#include "engine/store/metric_names.h"
#include "widgets/run_colours.h"
#include "widgets/training/run_curves.h"
#include "widgets/training/seed_band.h"
#include "widgets/training/seed_group_curves.h"
#include "widgets/training/training_charts.h"

using mrnn::widgets::RunCurves;
using mrnn::widgets::TrainingCharts;
using Chart = TrainingCharts::Chart;
using Series = TrainingCharts::Series;

namespace {

// A run of `steps` steps whose loss falls from `start` nats, validated every 10 steps.
RunCurves makeRun(qint64 id, const QString& label, int steps, double start) {
  RunCurves run(id, label);
  for (int step = 1; step <= steps; ++step) {
    mrnn::engine::StepEvent event;
    event.step = step;
    event.epoch = step / 50.0;
    event.loss = start / (1.0 + step / 40.0);
    event.learningRate = 0.003;
    event.gradientNorm = 1.0 + step % 3;
    event.symbolsPerSecond = 30000 + step;
    event.wallSeconds = step * 0.1;
    run.addStep(event);
    if (step % 10 == 0) {
      mrnn::engine::ValidationEvent validation;
      validation.step = step;
      validation.epoch = event.epoch;
      validation.figures.bitsPerSymbol = event.loss / std::log(2.0) + 0.1;
      validation.figures.perplexity = std::exp(event.loss + 0.07);
      run.addValidation(validation);
    }
  }
  return run;
}

// A Hessian-free run: each step reads `perStep` symbols and reports CG iterations, the kept
// iterate, λ and ρ; no learning rate.
RunCurves makeHessianFreeRun(qint64 id, const QString& label, int steps, int64_t perStep) {
  RunCurves run(id, label);
  namespace m = mrnn::engine::metric;
  for (int step = 1; step <= steps; ++step) {
    mrnn::engine::StepEvent event;
    event.step = step;
    event.epoch = step / 5.0;
    event.loss = 3.0 / (1.0 + step / 4.0);
    event.gradientNorm = 0.5;
    event.symbolsPerSecond = 20000;
    event.symbols = perStep * step;
    event.wallSeconds = step * 2.5;
    event.update = {{m::kCgIterations, 40.0 + step},
                    {m::kBacktrackedIterate, 35.0 + step},
                    {m::kLambda, 10.0 / step},
                    {m::kRho, step == 3 ? -std::numeric_limits<double>::infinity() : 0.8},
                    {m::kStepSize, 1.0}};
    run.addStep(event);
  }
  return run;
}

QPoint centreOf(const QRect& rect) {
  return rect.center();
}

}  // namespace

class TrainingChartsTest : public QObject {
  Q_OBJECT

 private slots:
  void init();
  void cleanup();
  void legendSitsAboveTheCurvesAndShowsEveryRun();
  void emptyChartsUseTheirWholeWidth();
  void clickingALegendEntryHidesAndShowsTheRun();
  void overlaysAreDashedInEveryChart();
  void readoutListsEveryShownRunAtTheMouse();
  void csvAndFigureHoldTheShownRuns();
  void hessianFreeRunsShowTheirCgChartAndLambda();
  void theSymbolsAxisLinesRunsUpByWhatTheyRead();
  void axisLabelsDifferAndFitAndForgetRunsGone();
  void aRunKeepsItsColourWhateverIsShownBesideIt();
  void legendEntriesReadWhole();
  void aShortRunIsNotFlattenedIntoItsFirstSteps();
  void seedsOfOneConfigurationDrawAMeanWithABand();
  void aLongRangeProblemsShareWrongIsDrawnBesideItsLoss();
  void aShortChartGetsFewerLabelsOnceLaidOut();
  void aSquaredErrorIsSavedAsItself();

 private:
  std::unique_ptr<TrainingCharts> charts_;
};

void TrainingChartsTest::init() {
  charts_ = std::make_unique<TrainingCharts>();
  charts_->resize(900, 520);
  charts_->show();
  QVERIFY(QTest::qWaitForWindowExposed(charts_.get()));
  charts_->setOverlays({makeRun(1, QStringLiteral("Run 1 · lstm 128 · 120k"), 200, 4.0),
                        makeRun(2, QStringLiteral("Run 2 · mlstm 128 · 150k"), 200, 3.6),
                        makeRun(3, QStringLiteral("Run 3 · lstm 256 · 300k"), 300, 3.4),
                        makeRun(4, QStringLiteral("Run 4 · mlstm 256 · 441k"), 300, 3.0)});
  charts_->replot();
}

void TrainingChartsTest::cleanup() {
  charts_.reset();
}

void TrainingChartsTest::legendSitsAboveTheCurvesAndShowsEveryRun() {
  QCustomPlot* loss = charts_->plot(Chart::Loss);
  QCOMPARE(loss->legend->itemCount(), 4);
  // Not inside the axis rect, where it covered the curves' right end.
  QCOMPARE(loss->axisRect()->insetLayout()->elementCount(), 0);
  const QRect curves = loss->axisRect()->rect();
  for (int i = 0; i < loss->legend->itemCount(); ++i) {
    const QRect entry = loss->legend->item(i)->outerRect();
    QVERIFY2(!entry.intersects(curves),
             qPrintable(QStringLiteral("entry %1 covers curves").arg(i)));
    // Every entry whole inside the chart: none cut off at its edge.
    QVERIFY2(loss->rect().contains(entry), qPrintable(QStringLiteral("entry %1 cut off").arg(i)));
  }
}

void TrainingChartsTest::emptyChartsUseTheirWholeWidth() {
  // Before any run the (empty, hidden) legend takes no room from the curves' area.
  TrainingCharts empty;
  empty.resize(900, 520);
  empty.show();
  QVERIFY(QTest::qWaitForWindowExposed(&empty));
  empty.replot();
  QCustomPlot* loss = empty.plot(Chart::Loss);
  QVERIFY2(
      loss->axisRect()->rect().width() > loss->width() * 3 / 4,
      qPrintable(
          QStringLiteral("%1 of %2").arg(loss->axisRect()->rect().width()).arg(loss->width())));
}

void TrainingChartsTest::clickingALegendEntryHidesAndShowsTheRun() {
  QCustomPlot* loss = charts_->plot(Chart::Loss);
  const QPoint entry = centreOf(loss->legend->item(1)->outerRect());
  QTest::mouseClick(loss, Qt::LeftButton, Qt::NoModifier, entry);
  QVERIFY(!charts_->isRunVisible(2));  // overlay 1 is run index 2
  QVERIFY(charts_->isRunVisible(1));
  for (int s = 0; s < TrainingCharts::kSeriesCount; ++s) {
    QVERIFY(!charts_->overlayGraph(1, static_cast<Series>(s))->visible());
    QVERIFY(charts_->overlayGraph(0, static_cast<Series>(s))->visible());
  }
  QVERIFY(loss->legend->item(1)->textColor().lightness() > 150);  // greyed
  // Hidden runs stay hidden when the overlays are read again.
  charts_->setOverlays({makeRun(1, QStringLiteral("Run 1"), 200, 4.0),
                        makeRun(2, QStringLiteral("Run 2"), 200, 3.6)});
  QVERIFY(!charts_->isRunVisible(2));
  charts_->replot();
  QTest::mouseClick(loss, Qt::LeftButton, Qt::NoModifier,
                    centreOf(loss->legend->item(1)->outerRect()));
  QVERIFY(charts_->isRunVisible(2));
  QVERIFY(charts_->overlayGraph(1, Series::Validation)->visible());
}

void TrainingChartsTest::overlaysAreDashedInEveryChart() {
  for (const Series series : {Series::LossSmoothed, Series::Validation, Series::LearningRate,
                              Series::GradientNorm, Series::Throughput}) {
    QCOMPARE(charts_->overlayGraph(0, series)->pen().style(), Qt::DashLine);
    QCOMPARE(charts_->liveGraph(series)->pen().style(), Qt::SolidLine);
  }
}

void TrainingChartsTest::readoutListsEveryShownRunAtTheMouse() {
  QCustomPlot* validation = charts_->plot(Chart::Validation);
  const int x = qRound(validation->xAxis->coordToPixel(250));
  const int y = validation->axisRect()->rect().center().y();
  QTest::mouseMove(validation, QPoint(x, y));
  QTRY_VERIFY(!charts_->readoutText(Chart::Validation).isEmpty());
  const QString text = charts_->readoutText(Chart::Validation);
  QVERIFY2(text.startsWith(QStringLiteral("step 250")), qPrintable(text));
  // Runs 3 and 4 reach step 250; runs 1 and 2 ended at 200 and say nothing there.
  QVERIFY2(text.contains(QStringLiteral("Run 3 · lstm 256 · 300k")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("Run 4 · mlstm 256 · 441k")), qPrintable(text));
  QVERIFY2(!text.contains(QStringLiteral("Run 1 ")), qPrintable(text));
  const double expected = 3.0 / (1.0 + 250 / 40.0) / std::log(2.0) + 0.1;
  QVERIFY2(text.contains(QString::number(expected, 'g', 4)), qPrintable(text));
  // The other charts draw the line only, at the same step.
  QVERIFY(charts_->readoutText(Chart::Loss).isEmpty());
  // Between two validations each run answers with its nearest one.
  charts_->showReadout(Chart::Validation, 123);
  QCOMPARE(charts_->readoutText(Chart::Validation).count(QStringLiteral("Run ")), 4);
  // Over the curves the chart's own tooltip stays out of the read-out's way.
  QVERIFY(validation->toolTip().isEmpty());

  // A hidden run leaves the read-out.
  charts_->setRunVisible(4, false);
  charts_->showReadout(Chart::Validation, 250);
  QVERIFY(!charts_->readoutText(Chart::Validation).contains(QStringLiteral("Run 4")));
  charts_->showReadout(Chart::Loss, 150);
  QCOMPARE(charts_->readoutText(Chart::Loss).count(QStringLiteral("Run ")), 3);

  // Leaving the chart takes it away.
  QEvent leave(QEvent::Leave);
  QApplication::sendEvent(validation, &leave);
  QVERIFY(charts_->readoutText(Chart::Loss).isEmpty());
}

void TrainingChartsTest::csvAndFigureHoldTheShownRuns() {
  charts_->setRunVisible(1, false);
  const QList<QByteArray> rows = charts_->toCsv().trimmed().split('\n');
  QCOMPARE(rows.first(), QByteArray("run,label,metric,step,epoch,seconds,value"));
  // Runs 2..4: steps x 4 step metrics + validations x 2.
  const int expected = (200 + 300 + 300) * 4 + (20 + 30 + 30) * 2;
  QCOMPARE(rows.size() - 1, expected);
  for (const QByteArray& row : rows.mid(1)) QVERIFY(!row.startsWith("1,"));
  const QByteArray first = rows.at(1);
  QVERIFY2(first.startsWith("2,Run 2 · mlstm 128 · 150k,train_bits_per_symbol,1,"), first);
  const double bits = first.split(',').last().toDouble();
  QVERIFY(std::fabs(bits - 3.6 / (1 + 1 / 40.0) / std::log(2.0)) < 1e-9);

  QTemporaryDir folder;
  for (const char* name : {"curves.png", "curves.svg", "curves.pdf"}) {
    const QString path = folder.filePath(QString::fromLatin1(name));
    charts_->saveFigure(path);
    QVERIFY2(QFileInfo(path).size() > 1000, name);
  }
  QImage image(folder.filePath(QStringLiteral("curves.png")));
  QCOMPARE(image.size(), charts_->size() * 2);
}

void TrainingChartsTest::hessianFreeRunsShowTheirCgChartAndLambda() {
  // First-order runs alone: no CG chart, nothing mixed.
  QVERIFY(charts_->plot(Chart::CgIterations)->isHidden());
  QVERIFY(!charts_->mixesUpdateRules());
  charts_->setOverlays({makeRun(1, QStringLiteral("Run 1 · Adam"), 200, 4.0),
                        makeHessianFreeRun(2, QStringLiteral("Run 2 · HF"), 12, 50000)});
  charts_->replot();
  QVERIFY(!charts_->plot(Chart::CgIterations)->isHidden());
  QVERIFY(charts_->mixesUpdateRules());
  QCOMPARE(charts_->overlayGraph(1, Series::CgIterations)->dataCount(), 12);
  QCOMPARE(charts_->overlayGraph(1, Series::KeptIterate)->dataCount(), 12);
  QCOMPARE(charts_->overlayGraph(1, Series::Lambda)->dataCount(), 12);
  // λ stands beside the first-order run's learning rate; the HF run has no rate of its own.
  QCOMPARE(charts_->overlayGraph(1, Series::LearningRate)->dataCount(), 0);
  QCOMPARE(charts_->overlayGraph(0, Series::LearningRate)->dataCount(), 200);
  QCOMPARE(charts_->overlayGraph(1, Series::Lambda)->parentPlot(),
           charts_->plot(Chart::LearningRate));
  // The chart says what it draws: both, λ dotted; Hessian-free alone, λ only.
  const auto rateTitle = [this] {
    auto* title = qobject_cast<QCPTextElement*>(
        charts_->plot(Chart::LearningRate)->plotLayout()->element(0, 0));
    return title ? title->text() : QString();
  };
  QCOMPARE(rateTitle(), QStringLiteral("Learning rate · Hessian-free λ (dotted)"));
  QCOMPARE(charts_->plot(Chart::LearningRate)->yAxis->label(), QStringLiteral("rate · λ"));
  charts_->setOverlays({makeHessianFreeRun(2, QStringLiteral("Run 2 · HF"), 12, 50000)});
  QCOMPARE(rateTitle(), QStringLiteral("Hessian-free λ (damping)"));
  QCOMPARE(charts_->plot(Chart::LearningRate)->yAxis->label(), QStringLiteral("λ"));
  charts_->setOverlays({makeRun(1, QStringLiteral("Run 1 · Adam"), 200, 4.0),
                        makeHessianFreeRun(2, QStringLiteral("Run 2 · HF"), 12, 50000)});
  charts_->replot();
  // The read-out gives the iterations run and kept and ρ (−∞ where the loss rose).
  charts_->showReadout(Chart::CgIterations, 3);
  const QString text = charts_->readoutText(Chart::CgIterations);
  QVERIFY2(text.contains(QStringLiteral("Run 2 · HF   43 (kept 38, ρ −∞)")), qPrintable(text));
  charts_->showReadout(Chart::LearningRate, 5);
  QVERIFY2(charts_->readoutText(Chart::LearningRate).contains(QStringLiteral("λ 2")),
           qPrintable(charts_->readoutText(Chart::LearningRate)));
  // The CSV carries the Hessian-free series too.
  QVERIFY(charts_->toCsv().contains(",cg_iterations,3,"));
  // Back to first-order runs alone: the chart goes.
  charts_->setOverlays({makeRun(1, QStringLiteral("Run 1"), 20, 4.0)});
  QVERIFY(charts_->plot(Chart::CgIterations)->isHidden());
  QCOMPARE(rateTitle(), QStringLiteral("Learning rate"));
  QCOMPARE(charts_->plot(Chart::LearningRate)->yAxis->label(), QStringLiteral("rate"));
}

void TrainingChartsTest::theSymbolsAxisLinesRunsUpByWhatTheyRead() {
  auto adam = makeRun(1, QStringLiteral("Adam"), 100, 4.0);
  charts_->setOverlays({adam, makeHessianFreeRun(2, QStringLiteral("HF"), 10, 32000)});
  charts_->setXAxis(TrainingCharts::XAxis::Symbols);
  QCOMPARE(charts_->plot(Chart::Loss)->xAxis->label(), QStringLiteral("training symbols read"));
  const auto keys = [](const QCPGraph* graph) {
    QVector<double> out;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
      out.append(it->key);
    }
    return out;
  };
  const QVector<double> hf = keys(charts_->overlayGraph(1, Series::LossRaw));
  QCOMPARE(hf.size(), 10);
  QCOMPARE(hf.first(), 32000.0);
  QCOMPARE(hf.last(), 320000.0);
  charts_->showReadout(Chart::Loss, 64000);
  QVERIFY2(charts_->readoutText(Chart::Loss).startsWith(QStringLiteral("64,000 symbols")),
           qPrintable(charts_->readoutText(Chart::Loss)));
}

void TrainingChartsTest::axisLabelsDifferAndFitAndForgetRunsGone() {
  // Validation figures a few thousandths apart, as late in a run.
  RunCurves close(7, QStringLiteral("Run 7"));
  for (int i = 1; i <= 3; ++i) {
    mrnn::engine::StepEvent event;
    event.step = 10 * i;
    event.loss = 3.3;
    event.learningRate = 0.003 / i;
    close.addStep(event);
    mrnn::engine::ValidationEvent validation;
    validation.step = 10 * i;
    validation.figures.bitsPerSymbol = 4.7045 - 0.0005 * i;
    validation.figures.perplexity = 26.0;
    close.addValidation(validation);
  }
  charts_->setOverlays({close});
  charts_->replot();
  charts_->replot();  // the second pass with the laid-out axis heights
  QCPAxis* validation = charts_->plot(Chart::Validation)->yAxis;
  const QVector<QString> labels = validation->tickVectorLabels();
  QVERIFY(labels.size() >= 2);
  for (int i = 1; i < labels.size(); ++i) {
    QVERIFY2(labels[i] != labels[i - 1], qPrintable(QStringList(labels.toList()).join(", ")));
  }

  // A short window (1280x720 with the panels): the small charts' labels do not overlap, with
  // a learning rate that decays over decades, in log scale and back in linear.
  RunCurves decaying(9, QStringLiteral("Run 9"));
  for (int step = 1; step <= 200; ++step) {
    mrnn::engine::StepEvent event;
    event.step = step;
    event.loss = 3.0;
    event.learningRate = 0.003 * std::pow(0.97, step);
    event.gradientNorm = 1.0 + step;
    event.symbolsPerSecond = 1000.0 * step;
    decaying.addStep(event);
  }
  charts_->setOverlays({decaying});
  charts_->resize(1200, 330);
  QTest::qWait(10);
  for (const bool log : {true, false}) {
    charts_->setLogScale(log);
    charts_->replot();
    charts_->replot();
    for (const Chart small : {Chart::LearningRate, Chart::GradientNorm, Chart::Throughput}) {
      QCustomPlot* target = charts_->plot(small);
      const int lineHeight = QFontMetrics(target->yAxis->tickLabelFont()).height();
      int shown = 0;
      for (const double tick : target->yAxis->tickVector())
        shown += target->yAxis->range().contains(tick);
      QVERIFY2(shown * lineHeight <= target->axisRect()->height(),
               qPrintable(QStringLiteral("%1 scale: %2 labels of %3 px in %4 px")
                              .arg(log ? "log" : "linear")
                              .arg(shown)
                              .arg(lineHeight)
                              .arg(target->axisRect()->height())));
    }
  }

  // A run shown without validation: no range left over from the run shown before.
  RunCurves unvalidated(8, QStringLiteral("Run 8"));
  mrnn::engine::StepEvent event;
  event.step = 5;
  event.loss = 2.0;
  unvalidated.addStep(event);
  charts_->setOverlays({unvalidated});
  charts_->replot();
  const QCPRange range = validation->range();
  QVERIFY2(range.lower > 4.8 || range.upper < 4.6,
           qPrintable(QStringLiteral("%1..%2").arg(range.lower).arg(range.upper)));
}

void TrainingChartsTest::aRunKeepsItsColourWhateverIsShownBesideIt() {
  const auto colourOf = [this](int overlay) {
    return charts_->overlayGraph(overlay, Series::LossSmoothed)->pen().color();
  };
  charts_->setOverlays(
      {makeRun(3, QStringLiteral("Run 3"), 20, 3.0), makeRun(7, QStringLiteral("Run 7"), 20, 3.0)});
  const QColor seven = colourOf(1);
  QVERIFY(seven != colourOf(0));
  charts_->setOverlays({makeRun(7, QStringLiteral("Run 7"), 20, 3.0)});
  QCOMPARE(colourOf(0), seven);
  // The live run takes its run's colour once it has an id.
  charts_->startLive(QStringLiteral("Run 7"));
  charts_->setLiveRunId(7);
  QCOMPARE(charts_->liveGraph(Series::LossSmoothed)->pen().color(), seven);
  // ... the colour every other view gives run 7 (Surprisal, the gates, the tree).
  QCOMPARE(seven, mrnn::widgets::runColour(7));
}

void TrainingChartsTest::legendEntriesReadWhole() {
  // Trials' names are long; at a 1280-pixel window's width every entry still reads whole.
  charts_->resize(640, 420);
  charts_->setOverlays(
      {makeRun(5, QStringLiteral("run 5 · cells #1: type=lstm (H 113), seed 1"), 20, 3.0),
       makeRun(6, QStringLiteral("run 6 · cells #2: type=lstm (H 113), seed 2"), 20, 3.0),
       makeRun(7, QStringLiteral("run 7 · cells #3: type=mlstm (H 46), seed 1"), 20, 3.0)});
  charts_->replot();
  QTest::qWait(20);
  charts_->replot();
  QCustomPlot* loss = charts_->plot(Chart::Loss);
  const QFontMetrics metrics(loss->legend->font());
  for (int i = 0; i < loss->legend->itemCount(); ++i) {
    auto* entry = qobject_cast<QCPPlottableLegendItem*>(loss->legend->item(i));
    QVERIFY(entry != nullptr);
    const int text = metrics.horizontalAdvance(entry->plottable()->name());
    QVERIFY2(entry->rect().width() >= text + loss->legend->iconSize().width(),
             qPrintable(QStringLiteral("%1: %2 px for %3 px of text")
                            .arg(entry->plottable()->name())
                            .arg(entry->rect().width())
                            .arg(text)));
  }
}

// Smoothed at 0.9, a 20-step run whose loss fell from 6 to 3.6 bits read about 4.4 at its
// end: its first steps' losses weighed on it. The smoothing window spans at most a fifth of a
// curve; a long run is smoothed as asked.
void TrainingChartsTest::aShortRunIsNotFlattenedIntoItsFirstSteps() {
  QCOMPARE(charts_->smoothing(), 0.9);
  QCOMPARE(mrnn::widgets::EmaSmoother::weightFor(0.9, 1000), 0.9);
  QVERIFY(mrnn::widgets::EmaSmoother::weightFor(0.9, 20) < 0.75);
  QCOMPARE(mrnn::widgets::EmaSmoother::weightFor(0.9, 3), 0.0);
  charts_->startLive(QStringLiteral("Run 9"));
  double lastBits = 0.0;
  for (int step = 1; step <= 20; ++step) {
    mrnn::engine::StepEvent event;
    event.step = step;
    event.wallSeconds = step;
    lastBits = 6.0 - 2.4 * (step - 1) / 19.0;
    event.loss = lastBits * std::log(2.0);
    charts_->addStep(event);
  }
  const QCPGraph* smoothed = charts_->liveGraph(Series::LossSmoothed);
  QCOMPARE(smoothed->dataCount(), 20);
  const double end = (smoothed->data()->constEnd() - 1)->value;
  QVERIFY2(
      end - lastBits < 0.4,
      qPrintable(QStringLiteral("smoothed %1 where the run stands at %2").arg(end).arg(lastBits)));
  // Drawn again as the run grew, it is what a finished run of those steps shows.
  const double live = end;
  charts_->setSmoothing(0.5);
  charts_->setSmoothing(0.9);
  QCOMPARE((charts_->liveGraph(Series::LossSmoothed)->data()->constEnd() - 1)->value, live);
}

// W&B's run grouping: three seeds of one configuration as their mean and a ± std band.
void TrainingChartsTest::seedsOfOneConfigurationDrawAMeanWithABand() {
  using mrnn::widgets::RunMetric;
  const QVector<RunCurves> seeds = {
      makeRun(5, QStringLiteral("run 5 · grid #1: cell=lstm, seed 1"), 100, 4.0),
      makeRun(6, QStringLiteral("run 6 · grid #2: cell=lstm, seed 2"), 100, 3.0),
      makeRun(7, QStringLiteral("run 7 · grid #3: cell=lstm, seed 3"), 60, 3.5)};
  const QString label = mrnn::widgets::seedGroupLabel(seeds);
  QCOMPARE(label, QStringLiteral("grid: cell=lstm · mean ± std of 3 runs"));
  const RunCurves group = mrnn::widgets::seedGroupCurves(seeds, label);
  QVERIFY(group.isSeedGroup());
  QCOMPARE(group.runId(), qint64{5});
  QCOMPARE(group.members(), (QVector<qint64>{5, 6, 7}));
  // Only the steps every seed reached: run 7 stopped at 60.
  QCOMPARE(group.curve(RunMetric::TrainLoss).size(), 60);
  QCOMPARE(group.curve(RunMetric::ValidBits).size(), 6);
  // At step 40 the losses are start / 2: 2.0, 1.5 and 1.75 nats; mean 1.75, sample std 0.25.
  const auto& loss = group.curve(RunMetric::TrainLoss);
  const auto& spread = group.spread(RunMetric::TrainLoss);
  QCOMPARE(loss[39].step, 40.0);
  QVERIFY(std::fabs(loss[39].value - 1.75) < 1e-12);
  QVERIFY(std::fabs(spread[39].value - 0.25) < 1e-12);
  QVERIFY(std::fabs(loss[39].wallSeconds - 4.0) < 1e-12);

  charts_->setOverlays({group, makeRun(8, QStringLiteral("Run 8 · mlstm"), 100, 3.0)});
  charts_->setSmoothing(0.0);
  charts_->replot();
  const auto* band = charts_->overlayBand(0, Chart::Validation);
  QVERIFY(band);
  QVERIFY(!charts_->overlayBand(1, Chart::Validation));  // a single run has none
  QVERIFY(!charts_->overlayBand(0, Chart::Throughput));
  // The band spans mean ± std at each validation, around the mean line.
  const auto& valid = group.curve(RunMetric::ValidBits);
  const auto& validSpread = group.spread(RunMetric::ValidBits);
  QCOMPARE(band->upper()->dataCount(), 6);
  for (int i = 0; i < 6; ++i) {
    QVERIFY(std::fabs(band->upper()->data()->at(i)->value -
                      (valid[i].value + validSpread[i].value)) < 1e-12);
    QVERIFY(std::fabs(band->lower()->data()->at(i)->value -
                      (valid[i].value - validSpread[i].value)) < 1e-12);
  }
  QVERIFY(validSpread[0].value > 0.0);
  // The loss band, unsmoothed here, is the loss in bits ± its std in bits.
  const auto* lossBand = charts_->overlayBand(0, Chart::Loss);
  QVERIFY(std::fabs(lossBand->upper()->data()->at(39)->value - 2.0 / std::log(2.0)) < 1e-9);
  QVERIFY(std::fabs(lossBand->lower()->data()->at(39)->value - 1.5 / std::log(2.0)) < 1e-9);
  // The band is out of the legend: one entry per group or run.
  QCOMPARE(charts_->plot(Chart::Loss)->legend->itemCount(), 2);
  // The read-out gives the spread beside the mean.
  charts_->showReadout(Chart::Loss, 40);
  const QString text = charts_->readoutText(Chart::Loss);
  QVERIFY2(text.contains(QStringLiteral("%1 ± %2")
                             .arg(QString::number(1.75 / std::log(2.0), 'g', 4))
                             .arg(QString::number(0.25 / std::log(2.0), 'g', 4))),
           qPrintable(text));
  // So does the CSV, as *_std rows of the group.
  const QByteArray csv = charts_->toCsv();
  QVERIFY(csv.contains("5,grid: cell=lstm · mean ± std of 3 runs,valid_bits_per_symbol_std,10,"));
  // Hiding the group hides its band.
  charts_->setRunVisible(1, false);
  QVERIFY(!band->upper()->visible() && !band->lower()->visible());
  charts_->setRunVisible(1, true);
  QVERIFY(band->upper()->visible());
}

void TrainingChartsTest::aLongRangeProblemsShareWrongIsDrawnBesideItsLoss() {
  // Corpora have no error rate: the validation chart has no right axis.
  QCustomPlot* validation = charts_->plot(Chart::Validation);
  QVERIFY(!validation->yAxis2->visible());
  QCOMPARE(charts_->overlayGraph(0, Series::ErrorRate)->dataCount(), 0);
  // A long-range problem's validations carry the share of sequences wrong.
  RunCurves problem(7, QStringLiteral("Run 7 · memorisation"));
  for (int step = 1; step <= 30; ++step) {
    mrnn::engine::StepEvent event;
    event.step = step;
    event.loss = 0.16 - step * 0.004;
    event.wallSeconds = step * 3.0;
    problem.addStep(event);
    if (step % 10 == 0) {
      mrnn::engine::ValidationEvent check;
      check.step = step;
      check.figures.bitsPerSymbol = event.loss / std::log(2.0);
      check.figures.errorRate = 1.0 - step / 40.0;  // 75%, 50%, 25% wrong
      check.figures.sequences = 500;
      problem.addValidation(check);
    }
  }
  QCOMPARE(problem.curve(mrnn::widgets::RunMetric::ValidErrorRate).size(), 3);
  charts_->setOverlays({problem});
  charts_->replot();
  QCPGraph* wrong = charts_->overlayGraph(0, Series::ErrorRate);
  QCOMPARE(wrong->parentPlot(), validation);
  QCOMPARE(wrong->valueAxis(), validation->yAxis2);
  QCOMPARE(wrong->dataCount(), 3);
  QCOMPARE((wrong->data()->constEnd() - 1)->value, 25.0);
  QVERIFY(validation->yAxis2->visible());
  QCOMPARE(validation->yAxis2->label(), QStringLiteral("% wrong"));
  // The loss keeps its own axis: its range is not stretched to 100.
  QVERIFY2(validation->yAxis->range().upper < 1.0,
           qPrintable(QString::number(validation->yAxis->range().upper)));
  charts_->showReadout(Chart::Validation, 30);
  const QString text = charts_->readoutText(Chart::Validation);
  QVERIFY2(text.contains(QStringLiteral("· 25.0% wrong")), qPrintable(text));
  QVERIFY(charts_->toCsv().contains(",valid_error_rate,30,"));
  // The live run draws it as its validations arrive.
  charts_->startLive(QStringLiteral("live"));
  mrnn::engine::StepEvent first;
  first.step = 1;
  first.loss = 0.15;
  charts_->addStep(first);
  mrnn::engine::ValidationEvent check;
  check.step = 1;
  check.figures.errorRate = 0.5;
  charts_->addValidation(check);
  QCOMPARE(charts_->liveGraph(Series::ErrorRate)->dataCount(), 1);
  QCOMPARE(charts_->liveGraph(Series::ErrorRate)->data()->constBegin()->value, 50.0);
  // Back to corpora alone: the axis goes.
  charts_->startLive(QStringLiteral("live"));
  charts_->setOverlays({makeRun(1, QStringLiteral("Run 1"), 20, 4.0)});
  charts_->replot();
  QVERIFY(!validation->yAxis2->visible());
}

void TrainingChartsTest::aShortChartGetsFewerLabelsOnceLaidOut() {
  // The tick count follows the curves' height, which only a replot's layout knows: a chart
  // made short (a 720-pixel window) must not keep the labels of its taller self.
  // As the monitor does: a change replots, after the events that made it.
  connect(
      charts_.get(), &TrainingCharts::changed, charts_.get(), [this] { charts_->replot(); },
      Qt::QueuedConnection);
  QCustomPlot* validation = charts_->plot(Chart::Validation);
  QTRY_VERIFY(validation->yAxis->tickVector().size() >= 4);
  charts_->resize(900, 260);  // the plots lay themselves out again; nothing else replots
  QTRY_VERIFY2(validation->yAxis->tickVector().size() <= 3,
               qPrintable(QString::number(validation->yAxis->tickVector().size())));
}

void TrainingChartsTest::aSquaredErrorIsSavedAsItself() {
  // The addition problem's loss is a squared error: Save numbers gives it so, never in bits.
  RunCurves addition(5, QStringLiteral("Run 5 · addition"));
  mrnn::engine::StepEvent step;
  step.step = 1;
  step.loss = 0.25;
  addition.addStep(step);
  mrnn::engine::ValidationEvent check;
  check.step = 1;
  check.figures.nats = 0.2;
  check.figures.bitsPerSymbol = 0.2 / std::log(2.0);
  addition.addValidation(check);
  charts_->setUnit(TrainingCharts::Unit::SquaredError);
  charts_->setOverlays({addition});
  const QByteArray csv = charts_->toCsv();
  QVERIFY2(csv.contains(",train_squared_error,1,0,0,0.25\n"), csv.constData());
  QVERIFY2(csv.contains(",valid_squared_error,1,0,0,0.2\n"), csv.constData());
  QVERIFY2(!csv.contains("bits_per_symbol") && !csv.contains("perplexity"), csv.constData());
}

QTEST_MAIN(TrainingChartsTest)
#include "test_training_charts.moc"
