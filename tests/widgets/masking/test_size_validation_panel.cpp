#include <qcustomplot.h>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <memory>

#include "engine/store/run_store.h"
#include "file_head.h"
#include "trained_project.h"
#include "widgets/export/export_bar.h"
#include "widgets/masking/size_validation_panel.h"
#include "widgets/masking/size_validation_plot.h"
#include "widgets/project/project_document.h"

using namespace mrnn;
using namespace mrnn::widgets;

namespace {

engine::RunRecord runRecord(int64_t id, const std::string& name, const std::string& type,
                            int64_t parameters, std::optional<double> bestValid) {
  engine::RunRecord run;
  run.id = id;
  run.name = name;
  run.modelType = type;
  run.parameters = parameters;
  run.bestValid = bestValid;
  run.status = bestValid ? engine::RunStatus::Finished : engine::RunStatus::Failed;
  return run;
}

// Three validated runs of two model types and two runs that never validated.
std::vector<engine::RunRecord> handBuiltRuns() {
  return {runRecord(1, "small", "mlstm", 100000, 2.1), runRecord(2, "big", "mlstm", 400000, 1.9),
          runRecord(3, "base, no dropout", "lstm", 200000, 2.3),
          runRecord(4, "crashed", "lstm", 300000, std::nullopt),
          runRecord(5, "stopped early", "mlstm", 800000, std::nullopt)};
}

QPoint pixelOf(const SizeValidationPlot* plot, double parameters, double bits) {
  return QPoint(qRound(plot->xAxis->coordToPixel(parameters)),
                qRound(plot->yAxis->coordToPixel(bits)));
}

void writeFile(const QString& path, const std::string& text) {
  std::ofstream out(path.toStdString(), std::ios::binary);
  out << text;
}

}  // namespace

class SizeValidationPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void runsOfOneSizeAreNotJoinedByAVerticalLine() {
    ProjectDocument document;
    SizeValidationPanel panel(document);
    auto runs = handBuiltRuns();
    runs.push_back(runRecord(6, "same size, worse", "mlstm", 100000, 2.4));
    panel.showRuns(runs);
    QCPGraph* mlstm = panel.plot()->graphOf("mlstm");
    // The line: the best run of each size, one point per size.
    QCOMPARE(mlstm->data()->size(), 2);
    QCOMPARE(mlstm->data()->at(0)->value, 2.1);
    // The other run is a marker of its own, without a line and out of the legend.
    QCOMPARE(panel.plot()->graphCount(), 3);
    QCPGraph* others = panel.plot()->graph(2);
    QCOMPARE(others->lineStyle(), QCPGraph::lsNone);
    QCOMPARE(others->data()->at(0)->value, 2.4);
    QCOMPARE(panel.plot()->legend->itemCount(), 2);
  }

  void plotsValidatedRunsByType() {
    ProjectDocument document;
    SizeValidationPanel panel(document);
    panel.showRuns(handBuiltRuns());
    SizeValidationPlot* plot = panel.plot();
    QCOMPARE(plot->modelTypes(), QStringList({"lstm", "mlstm"}));
    QCOMPARE(plot->graphCount(), 2);
    QCPGraph* mlstm = plot->graphOf("mlstm");
    QCPGraph* lstm = plot->graphOf("lstm");
    QVERIFY(mlstm && lstm);
    // The mLSTM points joined in order of size.
    QCOMPARE(mlstm->data()->size(), 2);
    QCOMPARE(mlstm->data()->at(0)->key, 100000.0);
    QCOMPARE(mlstm->data()->at(0)->value, 2.1);
    QCOMPARE(mlstm->data()->at(1)->key, 400000.0);
    QCOMPARE(mlstm->data()->at(1)->value, 1.9);
    QCOMPARE(mlstm->lineStyle(), QCPGraph::lsLine);
    QCOMPARE(lstm->data()->size(), 1);
    QCOMPARE(lstm->data()->at(0)->key, 200000.0);
    QCOMPARE(lstm->data()->at(0)->value, 2.3);
    // One colour and one marker per type, named in the legend.
    QVERIFY(mlstm->pen().color() != lstm->pen().color());
    QVERIFY(mlstm->scatterStyle().shape() != lstm->scatterStyle().shape());
    QCOMPARE(plot->legend->itemCount(), 2);
    QCOMPARE(mlstm->name(), QString("mlstm"));
    // Parameters on a log axis.
    QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(!plot->xAxis->ticker().dynamicCast<QCPAxisTickerLog>().isNull());
    QVERIFY(plot->xAxis->range().contains(100000.0) && plot->xAxis->range().contains(400000.0));
    QVERIFY(plot->yAxis->range().contains(1.9) && plot->yAxis->range().contains(2.3));
    // The runs left out are counted.
    QCOMPARE(panel.runsWithoutValidation(), 2);
    QCOMPARE(panel.noteLabel()->text(), QString("2 runs without validation are not shown."));
    // The table lists the plotted runs.
    QTableWidget* table = panel.table();
    QCOMPARE(table->rowCount(), 3);
    table->sortItems(0);
    QCOMPARE(table->item(0, 0)->text(), QString("1"));
    QCOMPARE(table->item(1, 1)->text(), QString("big"));
    QCOMPARE(table->item(2, 2)->text(), QString("lstm"));
    QCOMPARE(table->item(1, 3)->text(), QString("400,000"));
    QCOMPARE(table->item(1, 4)->text(), QString("1.9000"));
    // Parameters sort as numbers, not as text ("100,000" < "200,000" < "400,000" either way,
    // so sort descending by best valid instead).
    table->sortItems(4, Qt::DescendingOrder);
    QCOMPARE(table->item(0, 0)->text(), QString("3"));
    QCOMPARE(table->item(2, 0)->text(), QString("2"));
    QCOMPARE(panel.csv(), QByteArray("run_id,name,model_type,parameters,best_valid_bits\n"
                                     "1,small,mlstm,100000,2.1\n"
                                     "2,big,mlstm,400000,1.9\n"
                                     "3,\"base, no dropout\",lstm,200000,2.3\n"));
    QVERIFY(panel.exportBar()->figureButton()->isEnabled());

    panel.showRuns({handBuiltRuns()[0], handBuiltRuns()[3]});
    QCOMPARE(panel.noteLabel()->text(), QString("1 run without validation is not shown."));
    panel.showRuns({});
    QVERIFY(!panel.exportBar()->figureButton()->isEnabled());
  }

  void numbersSortAsNumbers() {
    ProjectDocument document;
    SizeValidationPanel panel(document);
    panel.showRuns({runRecord(9, "a", "lstm", 9000, 2.0), runRecord(10, "b", "lstm", 10000, 1.5),
                    runRecord(11, "c", "lstm", 1200000, 1.2)});
    panel.table()->sortItems(3);
    QCOMPARE(panel.table()->item(0, 3)->text(), QString("9,000"));
    QCOMPARE(panel.table()->item(2, 3)->text(), QString("1,200,000"));
    panel.table()->sortItems(0);
    QCOMPARE(panel.table()->item(0, 0)->text(), QString("9"));
    QCOMPARE(panel.table()->item(2, 0)->text(), QString("11"));
  }

  void hoverNamesTheRun() {
    ProjectDocument document;
    SizeValidationPanel panel(document);
    panel.resize(800, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.showRuns(handBuiltRuns());
    SizeValidationPlot* plot = panel.plot();
    plot->replot();
    const QPoint big = pixelOf(plot, 400000.0, 1.9);
    QCOMPARE(plot->runAt(big), 1);
    QCOMPARE(plot->runAt(big + QPoint(3, -2)), 1);
    QCOMPARE(plot->runAt(pixelOf(plot, 200000.0, 2.3)), 2);
    QCOMPARE(plot->runAt(pixelOf(plot, 200000.0, 2.0)), -1);
    const QString text = SizeValidationPlot::describe(plot->runs()[1]);
    QCOMPARE(text, QString("Run 2 · big\nmlstm · 400,000 parameters\n"
                           "best valid 1.9000 bits/symbol · finished"));
    QTest::mouseMove(plot, big);
    QTRY_VERIFY(panel.readoutLabel()->text().startsWith("Run 2 · big"));
    QVERIFY(panel.readoutLabel()->text().contains("400,000 parameters"));
    QTest::mouseMove(plot, pixelOf(plot, 200000.0, 2.0));
    QTRY_VERIFY(panel.readoutLabel()->text().startsWith("Hover"));
  }

  void exportsFigureAndNumbers() {
    ProjectDocument document;
    SizeValidationPanel panel(document);
    panel.resize(800, 600);
    panel.showRuns(handBuiltRuns());
    QTemporaryDir dir;
    const std::vector<std::pair<QString, QByteArray>> figures{
        {"size.png", QByteArray("\x89PNG", 4)},
        {"size.svg", QByteArray("<?xml")},
        {"size.pdf", QByteArray("%PDF")}};
    for (const auto& [name, magic] : figures) {
      QCOMPARE(panel.exportBar()->saveFigureTo(dir.filePath(name)), QString());
      QCOMPARE(test::fileHead(dir.filePath(name), magic.size()), magic);
    }
    QCOMPARE(panel.exportBar()->saveCsvTo(dir.filePath("size.csv")), QString());
    QCOMPARE(test::fileHead(dir.filePath("size.csv"), 100000), panel.csv());
  }

  void untitledAndUnreadableProjectsSayWhy() {
    ProjectDocument untitled;
    SizeValidationPanel panel(untitled);
    QVERIFY(panel.noteLabel()->text().contains("not saved yet"));
    QVERIFY(panel.plottedRuns().empty());

    QTemporaryDir dir;
    writeFile(dir.filePath("project.yaml"), test::tinyProjectYaml(4));
    writeFile(dir.filePath("corpus.txt"), test::lexiconText(500));
    ProjectDocument fresh;
    fresh.load(dir.filePath("project.yaml"));
    SizeValidationPanel never(fresh);
    QVERIFY(never.noteLabel()->text().startsWith("No runs yet"));
    QVERIFY(!QFile::exists(dir.filePath("runs.sqlite")));  // nothing created by looking

    writeFile(dir.filePath("runs.sqlite"), std::string(4096, 'x'));
    never.refresh();
    QVERIFY2(never.noteLabel()->text().startsWith("The run database could not be read: "),
             qPrintable(never.noteLabel()->text()));
    QVERIFY(never.plottedRuns().empty());
  }

  void showsTheTrainedRun() {
    test::TrainedProject trained(test::tinyProjectYaml(8), test::lexiconText(3000));
    QVERIFY2(trained.ok(), qPrintable(trained.error()));
    const engine::RunStore store((trained.folder() + "/runs.sqlite").toStdString());
    const auto recorded = store.run(trained.runId());
    QVERIFY(recorded && recorded->bestValid && recorded->parameters > 0);
    ProjectDocument document;
    SizeValidationPanel panel(document);
    document.load(trained.projectFile());  // the panel re-reads when the project opens
    QCOMPARE(panel.plottedRuns().size(), size_t(1));
    QCOMPARE(panel.plottedRuns()[0].id, trained.runId());
    QCOMPARE(panel.plottedRuns()[0].parameters, recorded->parameters);
    QCPGraph* graph = panel.plot()->graphOf(QString::fromStdString(recorded->modelType));
    QVERIFY(graph);
    QCOMPARE(graph->data()->size(), 1);
    QCOMPARE(graph->data()->at(0)->key, static_cast<double>(recorded->parameters));
    QCOMPARE(graph->data()->at(0)->value, *recorded->bestValid);
    QCOMPARE(panel.noteLabel()->text(), QString("1 run by parameters and best validation loss."));
  }

  // Runs of three model types at several sizes, written to a run database by hand and read
  // as a user would open the project (/tmp/size.png).
  void screenshotOfARunDatabase() {
    QTemporaryDir dir;
    writeFile(dir.filePath("project.yaml"), test::tinyProjectYaml(4));
    {
      engine::RunStore store((dir.path() + "/runs.sqlite").toStdString());
      struct Run {
        const char* name;
        const char* type;
        int64_t parameters;
        double valid;
      };
      const Run runs[] = {
          {"lstm-256", "lstm", 330000, 2.02},      {"lstm-512", "lstm", 1200000, 1.84},
          {"lstm-1024", "lstm", 4600000, 1.71},    {"mlstm-256", "mlstm", 460000, 1.93},
          {"mlstm-512", "mlstm", 1700000, 1.74},   {"mlstm-1024", "mlstm", 6500000, 1.6},
          {"mlstm x2", "mlstm x2", 2400000, 1.69}, {"mlstm x2 big", "mlstm x2", 9000000, 1.55}};
      for (const auto& r : runs) {
        engine::RunRecord record = runRecord(0, r.name, r.type, r.parameters, std::nullopt);
        const int64_t id = store.createRun(record);
        store.setBestValid(id, r.valid);
        store.setStatus(id, engine::RunStatus::Finished);
      }
      const int64_t failed =
          store.createRun(runRecord(0, "diverged", "lstm", 800000, std::nullopt));
      store.setStatus(failed, engine::RunStatus::Failed, "loss became NaN");
    }
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    SizeValidationPanel panel(document);
    panel.resize(1000, 720);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.plottedRuns().size(), size_t(8));
    QCOMPARE(panel.runsWithoutValidation(), 1);
    QTest::mouseMove(panel.plot(), pixelOf(panel.plot(), 1700000.0, 1.74));
    QTRY_VERIFY(panel.readoutLabel()->text().startsWith("Run 5"));
    QVERIFY(panel.grab().save("/tmp/size.png"));
  }
};

QTEST_MAIN(SizeValidationPanelTest)
#include "test_size_validation_panel.moc"
