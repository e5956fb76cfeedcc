#include <qcustomplot.h>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <memory>

#include "engine/analysis/held_out_text.h"
#include "engine/analysis/loaded_model.h"
#include "engine/config/project_file.h"
#include "engine/runtime/stop_token.h"
#include "engine/scoring/feature_masking.h"
#include "engine/training/trainer.h"
#include "file_head.h"
#include "model_files.h"
#include "trained_project.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/export/export_bar.h"
#include "widgets/masking/masking_curve_plot.h"
#include "widgets/masking/masking_panel.h"
#include "widgets/project/project_document.h"

using namespace mrnn;
using namespace mrnn::widgets;

namespace {

const double kLn2 = std::log(2.0);

engine::MaskingCurve curve(std::optional<size_t> layer, std::vector<double> mean,
                           std::vector<double> spread) {
  engine::MaskingCurve c;
  c.layer = layer;
  c.p = {0.0, 0.25, 0.5};
  c.meanLoss = std::move(mean);
  c.stdLoss = std::move(spread);
  c.runs = 3;
  return c;
}

std::vector<engine::MaskingCurve> curvesA() {
  return {curve(0, {1.0, 1.2, 1.5}, {0.0, 0.02, 0.05}),
          curve(std::nullopt, {1.0, 1.4, 2.0}, {0.0, 0.04, 0.1})};
}

std::vector<engine::MaskingCurve> curvesB() {
  return {curve(0, {0.9, 1.1, 1.3}, {0.0, 0.01, 0.03}),
          curve(std::nullopt, {0.9, 1.25, 1.7}, {0.0, 0.02, 0.06})};
}

// tinyProjectYaml with two mLSTM layers of `hidden` units, or one LSTM layer.
std::string projectYaml(int steps, const std::string& layers) {
  std::string yaml = test::tinyProjectYaml(steps);
  const std::string one = "    - {type: mlstm, hidden_size: 16}\n";
  return yaml.replace(yaml.find(one), one.size(), layers);
}

// Trains `yaml` (a project file written into `folder`, so its run joins that folder's run
// database) and returns the best checkpoint; empty on failure.
QString trainAnotherRun(const QString& folder, const std::string& yaml) {
  const QString path = folder + "/other.yaml";
  {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(QByteArray::fromStdString(yaml));
  }
  engine::StopToken control;
  engine::Trainer trainer(engine::loadProject(path.toStdString()), [](engine::TrainingEvent) {});
  const auto outcome = trainer.run(control);
  return outcome.finished ? QString::fromStdString(outcome.bestCheckpoint) : QString();
}

}  // namespace

class MaskingPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    trained_ =
        std::make_unique<test::TrainedProject>(test::tinyProjectYaml(8), test::lexiconText(3000));
    QVERIFY2(trained_->ok(), qPrintable(trained_->error()));
  }

  void theEstimateSaysWhatWasRead() {
    ProjectDocument document;
    MaskingPanel panel(document);
    auto* estimate = panel.findChild<QLabel*>(QStringLiteral("maskingEstimate"));
    QVERIFY(estimate != nullptr);
    // Before a run the split's length is unknown: the setting is a bound.
    QVERIFY2(estimate->text().contains(QStringLiteral("at most 20,000 symbols")),
             qPrintable(estimate->text()));
    auto curves = curvesA();
    for (auto& c : curves) c.symbols = 10512;  // a split shorter than the bound
    panel.showCurves(curves, "A");
    QVERIFY2(estimate->text().contains(QStringLiteral("each over 10,512 symbols")),
             qPrintable(estimate->text()));
  }

  void plotsBitsWithErrorBars() {
    ProjectDocument document;
    MaskingPanel panel(document);
    QVERIFY(!panel.exportBar()->figureButton()->isEnabled());
    panel.showCurves(curvesA(), "Run 4 · mlstm x2 · best");
    MaskingCurvePlot* curves = panel.curvePlot();
    QCOMPARE(curves->plot()->graphCount(), 2);
    const std::vector<std::vector<double>> means{{1.0, 1.2, 1.5}, {1.0, 1.4, 2.0}};
    const std::vector<std::vector<double>> spreads{{0.0, 0.02, 0.05}, {0.0, 0.04, 0.1}};
    const std::vector<double> levels{0.0, 0.25, 0.5};
    for (int g = 0; g < 2; ++g) {
      QCPGraph* graph = curves->graph(g);
      QCOMPARE(graph->data()->size(), 3);
      for (int i = 0; i < 3; ++i) {
        QCOMPARE(graph->data()->at(i)->key, levels[static_cast<size_t>(i)]);
        QVERIFY(std::abs(graph->data()->at(i)->value - means[g][i] / kLn2) < 1e-12);
        const QCPErrorBarsData bar = curves->errorBars(g)->data()->at(i);
        QVERIFY(std::abs(bar.errorMinus - spreads[g][i] / kLn2) < 1e-12);
        QVERIFY(std::abs(bar.errorPlus - spreads[g][i] / kLn2) < 1e-12);
      }
      QCOMPARE(graph->pen().style(), Qt::SolidLine);
    }
    QCOMPARE(curves->graph(0)->name(), QString("A · layer 1"));
    QCOMPARE(curves->graph(1)->name(), QString("A · all layers"));
    // Colours per layer; the error bars take their curve's colour and stay out of the legend.
    QCOMPARE(curves->graph(0)->pen().color(), QColor(0x1f, 0x77, 0xb4));
    QCOMPARE(curves->graph(1)->pen().color(), QColor(0x33, 0x33, 0x33));
    QCOMPARE(curves->errorBars(0)->pen().color(), curves->graph(0)->pen().color());
    QCOMPARE(curves->plot()->legend->itemCount(), 2);
    QVERIFY(curves->caption().contains("Run 4 · mlstm x2 · best"));
    // Table: P rows by curves, mean ± std in bits per symbol.
    QTableWidget* table = curves->table();
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->columnCount(), 3);
    QCOMPARE(table->horizontalHeaderItem(1)->text(), QString("A · layer 1"));
    QCOMPARE(table->horizontalHeaderItem(2)->text(), QString("A · all layers"));
    QCOMPARE(table->item(1, 0)->text(), QString("0.25"));
    QCOMPARE(table->item(0, 1)->text(), QString("1.4427 ± 0.0000"));
    QCOMPARE(table->item(1, 1)->text(), QString("1.7312 ± 0.0289"));
    QCOMPARE(table->item(2, 2)->text(), QString("2.8854 ± 0.1443"));
    QVERIFY(table->item(1, 1)->toolTip().contains("1.2000 ± 0.0200 nats"));
    QVERIFY(panel.exportBar()->figureButton()->isEnabled());
  }

  void comparisonAddsDashedCurves() {
    ProjectDocument document;
    MaskingPanel panel(document);
    panel.showCurves(curvesA(), "Run 4 · mlstm · best", curvesB(), "Run 5 · lstm · best");
    MaskingCurvePlot* curves = panel.curvePlot();
    QCOMPARE(curves->plot()->graphCount(), 4);
    QCOMPARE(curves->graph(2)->name(), QString("B · layer 1"));
    QCOMPARE(curves->graph(3)->name(), QString("B · all layers"));
    QCOMPARE(curves->graph(0)->pen().style(), Qt::SolidLine);
    QCOMPARE(curves->graph(2)->pen().style(), Qt::DashLine);
    QCOMPARE(curves->graph(3)->pen().style(), Qt::DashLine);
    // Same layer, same colour; the model shows in the line and the marker.
    QCOMPARE(curves->graph(2)->pen().color(), curves->graph(0)->pen().color());
    QCOMPARE(curves->graph(2)->scatterStyle().shape(), QCPScatterStyle::ssSquare);
    QCOMPARE(curves->graph(0)->scatterStyle().shape(), QCPScatterStyle::ssDisc);
    QVERIFY(std::abs(curves->graph(2)->data()->at(1)->value - 1.1 / kLn2) < 1e-12);
    QVERIFY(curves->caption().contains("Run 4 · mlstm · best"));
    QVERIFY(curves->caption().contains("Run 5 · lstm · best"));
    QCOMPARE(curves->table()->columnCount(), 5);
    QCOMPARE(curves->table()->item(1, 3)->text(), QString("1.5870 ± 0.0144"));
    // The CSV gets a model column and bits.
    const QList<QByteArray> lines = panel.csv().split('\n');
    QCOMPARE(lines.size(), 1 + 12 + 1);  // header, 4 curves x 3 P, final newline
    QCOMPARE(lines[0], QByteArray("model,layer,p,mean_nats,std_nats,mean_bits,runs"));
    QCOMPARE(QString::fromUtf8(lines[1]), QString("Run 4 · mlstm · best,1,0,1,0,1.442695041,1"));
    QCOMPARE(QString::fromUtf8(lines[8]),
             QString("Run 5 · lstm · best,1,0.25,1.1,0.01,1.586964545,3"));
    QCOMPARE(QString::fromUtf8(lines[12]),
             QString("Run 5 · lstm · best,all,0.5,1.7,0.06,2.45258157,3"));
  }

  void singleModelCsvIsTheEngines() {
    ProjectDocument document;
    MaskingPanel panel(document);
    panel.showCurves(curvesA(), "A");
    // Curves without their runs' perplexities (built here from losses) give exp(mean_nats)
    // and no spread.
    QCOMPARE(panel.csv(),
             QByteArray("layer,p,mean_perplexity,std_perplexity,mean_nats,std_nats,runs\n"
                        "1,0,2.718281828,,1,0,1\n"
                        "1,0.25,3.320116923,,1.2,0.02,3\n"
                        "1,0.5,4.48168907,,1.5,0.05,3\n"
                        "all,0,2.718281828,,1,0,1\n"
                        "all,0.25,4.055199967,,1.4,0.04,3\n"
                        "all,0.5,7.389056099,,2,0.1,3\n"));
  }

  void exportsFigureAndNumbers() {
    ProjectDocument document;
    MaskingPanel panel(document);
    panel.resize(900, 600);
    panel.showCurves(curvesA(), "A", curvesB(), "B");
    QTemporaryDir dir;
    const std::vector<std::pair<QString, QByteArray>> figures{
        {"masking.png", QByteArray("\x89PNG", 4)},
        {"masking.svg", QByteArray("<?xml")},
        {"masking.pdf", QByteArray("%PDF")}};
    for (const auto& [name, magic] : figures) {
      QCOMPARE(panel.exportBar()->saveFigureTo(dir.filePath(name)), QString());
      QCOMPARE(test::fileHead(dir.filePath(name), magic.size()), magic);
    }
    QCOMPARE(panel.exportBar()->saveCsvTo(dir.filePath("masking.csv")), QString());
    QCOMPARE(test::fileHead(dir.filePath("masking.csv"), 100000), panel.csv());
  }

  void inputsHaveDefaults() {
    ProjectDocument document;
    MaskingPanel panel(document);
    QCOMPARE(panel.layerCombo()->currentIndex(), int(MaskingPanel::EachLayerAndAll));
    QCOMPARE(panel.pMaxSpin()->value(), 0.5);
    QCOMPARE(panel.pStepSpin()->value(), 0.05);
    QCOMPARE(panel.runsSpin()->value(), 3);
    QCOMPARE(panel.maxSymbolsSpin()->value(), 20000);
    QCOMPARE(panel.textCombo()->currentText(), QString("Project validation split"));
    QCOMPARE(panel.comparisonChooser()->checkpoint(), QString());
    panel.setTextFile("/tmp/some text.txt");
    QCOMPARE(panel.textCombo()->currentIndex(), int(MaskingPanel::TextFile));
    QCOMPARE(panel.textFile(), QString("/tmp/some text.txt"));
  }

  void layersComeFromTheRun() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    MaskingPanel panel(document);
    panel.setCheckpoint(trained_->bestCheckpoint());
    // The run's model has one layer: known from its config before any weights are loaded.
    QCOMPARE(panel.layerCombo()->count(), 3);
    QCOMPARE(panel.layerCombo()->itemText(2), QString("layer 1"));
    // A layer the model lacks can be asked for; the job says so in words.
    panel.setLayerChoice(MaskingPanel::FirstLayer + 1);
    QCOMPARE(panel.layerCombo()->currentText(), QString("layer 2"));
    QSignalSpy finished(&panel, &MaskingPanel::analysisFinished);
    QSignalSpy failed(panel.jobBar(), &AnalysisJobBar::failed);
    panel.runAnalysis();
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.first().first().toBool(), false);
    QCOMPARE(failed.size(), 1);
    QCOMPARE(failed.first().first().toString(),
             QString("model A has 1 layer: there is no layer 2"));
    QVERIFY(panel.series().empty());
    QVERIFY(panel.runButton()->isEnabled());
  }

  void realRunMatchesTheEvaluation() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    MaskingPanel panel(document);
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setComparisonCheckpoint(trained_->latestCheckpoint());
    panel.setPMax(0.2);
    panel.setPStep(0.1);
    panel.setRuns(1);
    panel.setMaxSymbols(400);
    QSignalSpy finished(&panel, &MaskingPanel::analysisFinished);
    panel.runButton()->click();
    QVERIFY(!panel.runButton()->isEnabled());
    QVERIFY(finished.wait(20000));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QCOMPARE(panel.jobBar()->progressBar()->value(), 1000);
    // One layer: one curve per model (its "all layers" curve would be the same).
    const auto& series = panel.series();
    QCOMPARE(series.size(), size_t(2));
    QCOMPARE(series[0].model, 0);
    QCOMPARE(series[1].model, 1);
    QCOMPARE(series[0].layer, std::optional<size_t>(0));
    const std::vector<double> levels{0.0, 0.1, 0.2};
    QCOMPARE(series[0].p, levels);
    QCOMPARE(series[0].meanNats.size(), size_t(3));
    QCOMPARE(series[0].stdNats[0], 0.0);
    const double bestLoss = test::staticValidationLoss(trained_->bestCheckpoint().toStdString(),
                                                       document.project(), 400);
    const double latestLoss = test::staticValidationLoss(trained_->latestCheckpoint().toStdString(),
                                                         document.project(), 400);
    QVERIFY2(std::abs(series[0].meanNats[0] - bestLoss) < 1e-6,
             qPrintable(QString("%1 vs %2").arg(series[0].meanNats[0]).arg(bestLoss)));
    QVERIFY(std::abs(series[1].meanNats[0] - latestLoss) < 1e-6);
    // Masked evaluations differ from the unmasked one.
    QVERIFY(series[0].meanNats[2] != series[0].meanNats[0]);
    QCOMPARE(panel.curvePlot()->graph(0)->data()->at(0)->value, series[0].meanNats[0] / kLn2);
    QCOMPARE(panel.curvePlot()->graph(1)->pen().style(), Qt::DashLine);
    QVERIFY(panel.curvePlot()->caption().contains("Run 1"));

    // All layers at once masks the same single layer: the same numbers again (the mask
    // depends only on seed, P, mask number and layer).
    panel.setComparisonCheckpoint(QString());
    panel.setLayerChoice(MaskingPanel::AllLayersAtOnce);
    const std::vector<double> layerOne = series[0].meanNats;
    panel.runAnalysis();
    QVERIFY(finished.wait(20000));
    QVERIFY(finished.last().first().toBool());
    QCOMPARE(panel.series().size(), size_t(1));
    QCOMPARE(panel.series()[0].layer, std::optional<size_t>());
    QCOMPARE(panel.series()[0].meanNats, layerOne);
  }

  void cancelStopsTheAnalysis() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    MaskingPanel panel(document);
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setPMax(0.5);
    panel.setPStep(0.05);
    panel.setRuns(1000);  // 10,001 evaluations: far more than the test waits for
    panel.setMaxSymbols(0);
    QSignalSpy finished(&panel, &MaskingPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(panel.jobBar()->isRunning());
    // Cancel once masked evaluations run (the reports reach the bar through the forwarder).
    QTRY_VERIFY_WITH_TIMEOUT(panel.jobBar()->progressBar()->value() > 0, 20000);
    QVERIFY(panel.jobBar()->status().contains("P = "));
    panel.jobBar()->cancel();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(panel.jobBar()->status().contains("cancelled"));
    QVERIFY(panel.series().empty());
    QVERIFY(!panel.exportBar()->figureButton()->isEnabled());
    QVERIFY(panel.runButton()->isEnabled());
  }

  void eachCurveIsDrawnWhenItEnds() {
    // Two models, a curve each: model A's curve shows while model B's is still being read.
    ProjectDocument document;
    document.load(trained_->projectFile());
    MaskingPanel panel(document);
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setComparisonCheckpoint(trained_->latestCheckpoint());
    panel.setPMax(0.5);
    panel.setPStep(0.05);
    panel.setRuns(400);  // 4,001 evaluations a curve: seconds, whatever else the machine runs
    panel.setMaxSymbols(0);
    QSignalSpy finished(&panel, &MaskingPanel::analysisFinished);
    panel.runAnalysis();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.series().empty() || !finished.isEmpty(), 120000);
    QVERIFY2(finished.isEmpty(), "the first curve was drawn only once every curve was done");
    QCOMPARE(panel.series().size(), size_t(1));
    QCOMPARE(panel.series()[0].model, 0);
    QVERIFY(panel.jobBar()->isRunning());
    // Cancelled now, the curve that ended stays drawn.
    panel.jobBar()->cancel();
    QVERIFY(finished.wait(120000));
    QCOMPARE(panel.series().size(), size_t(1));
  }

  void closingWhileRunningStopsTheJob() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    auto panel = std::make_unique<MaskingPanel>(document);
    panel->setCheckpoint(trained_->bestCheckpoint());
    panel->setRuns(1000);
    panel->setMaxSymbols(0);
    panel->runAnalysis();
    QTRY_VERIFY_WITH_TIMEOUT(panel->jobBar()->progressBar()->value() > 0, 20000);
    QElapsedTimer timer;
    timer.start();
    panel.reset();  // cancels and waits for the engine thread
    QVERIFY(timer.elapsed() < 5000);
  }

  // A two-layer mLSTM against a one-layer LSTM trained on the same text in the same project
  // folder (two runs of its database), rendered as a user sees the view (/tmp/masking.png).
  void screenshotAfterRealRun() {
    test::TrainedProject deep(projectYaml(120,
                                          "    - {type: mlstm, hidden_size: 32}\n"
                                          "    - {type: mlstm, hidden_size: 32}\n"),
                              test::lexiconText(20000));
    QVERIFY2(deep.ok(), qPrintable(deep.error()));
    const QString lstm =
        trainAnotherRun(deep.folder(), projectYaml(120, "    - {type: lstm, hidden_size: 32}\n"));
    QVERIFY(!lstm.isEmpty());
    ProjectDocument document;
    document.load(deep.projectFile());
    MaskingPanel panel(document);
    panel.resize(1280, 720);
    panel.show();
    panel.setCheckpoint(deep.bestCheckpoint());
    panel.setComparisonCheckpoint(lstm);
    QCOMPARE(panel.comparisonChooser()->label(), QString("Run 2 · lstm 32 · best"));
    QCOMPARE(panel.layerCombo()->count(), 4);  // each and all, all, layer 1, layer 2
    panel.setMaxSymbols(1000);
    QSignalSpy finished(&panel, &MaskingPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    // A: layers 1, 2 and all; B: its one layer.
    QCOMPARE(panel.series().size(), size_t(4));
    QCOMPARE(panel.curvePlot()->table()->rowCount(), 11);
    QVERIFY(panel.grab().save("/tmp/masking.png"));
  }

 private:
  std::unique_ptr<test::TrainedProject> trained_;
};

QTEST_MAIN(MaskingPanelTest)
#include "test_masking_panel.moc"
