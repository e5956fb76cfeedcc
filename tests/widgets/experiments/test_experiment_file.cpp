// The experiment file as the panel rewrites it: what the editor has no column for (an axis's
// `also` keys and value names, anchors its claims name values by) stays when the researcher
// edits something else. And the names label the plots.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include "engine/config/config_error.h"
#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "experiment_test_project.h"
#include "experiment_test_store.h"
#include "widgets/experiments/experiment_file.h"
#include "widgets/experiments/experiment_snapshot.h"
#include "widgets/experiments/metric_axis_plot.h"
#include "widgets/experiments/parallel_coordinates_view.h"
#include "widgets/experiments/results_table_model.h"

using namespace mrnn;
using namespace mrnn::widgets;

namespace {

// A two-layer problem project in `dir` and the path of its experiment file (not written yet).
QString experimentBeside(const QTemporaryDir& dir) {
  QDir(dir.path()).mkpath(QStringLiteral("experiments"));
  test::ExperimentTestProject::writeFile(dir.filePath(QStringLiteral("project.yaml")),
                                         test::ExperimentTestProject::problemProject(2));
  return dir.filePath(QStringLiteral("experiments/e.yaml"));
}

}  // namespace

class ExperimentFileTest : public QObject {
  Q_OBJECT

 private slots:
  void anEditKeepsWhatTheEditorDoesNotShow();
  void namedValuesLabelTheTablesAndPlots();
  void anEditThatWouldDropCommentsIsRefused();
  void anEditNeverReplacesChangesMadeOutside();
};

void ExperimentFileTest::anEditKeepsWhatTheEditorDoesNotShow() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString path = experimentBeside(dir);
  const std::string before =
      "# Adam against SGD, both layers' widths at once.\n"
      "experiment:\n"
      "  axes:\n"
      "    - key: model.layers[0].hidden_size\n"
      "      also: [\"model.layers[1].hidden_size\"]\n"
      "      values: [8, 16]\n"
      "    - key: training.optimizer\n"
      "      values:\n"
      "        - &adam {type: adam, lr: 0.003}\n"
      "        - &sgd {type: sgd, lr: 0.1}\n"
      "      names: [Adam, SGD]\n"
      "  seeds: [1]\n"
      "  claims:\n"
      "    - better:\n"
      "        training.optimizer: *adam\n"
      "        model.layers[0].hidden_size: 16\n"
      "      worse:\n"
      "        training.optimizer: *sgd\n"
      "        model.layers[0].hidden_size: 16\n"
      "      metric: valid_bpc\n"
      "      source: a test\n";
  test::ExperimentTestProject::writeFile(path, before);
  ExperimentFile file;
  QString problem;
  QVERIFY2(file.load(path, &problem), qPrintable(problem));
  SearchRow search = file.search();
  search.seeds = QStringLiteral("1, 2");
  const std::string after = file.compose(file.axes(), search, file.fixedSettings());
  const engine::Experiment read = engine::parseExperiment(after, path.toStdString());
  QCOMPARE(read.seeds, (std::vector<uint64_t>{1, 2}));
  QCOMPARE(read.axes[0].also, std::vector<std::string>{"model.layers[1].hidden_size"});
  QCOMPARE(read.axes[1].names, (std::vector<std::string>{"Adam", "SGD"}));
  QCOMPARE(read.claims.size(), size_t{1});
  // Only the seeds' line changed.
  std::string expected = before;
  expected.replace(expected.find("seeds: [1]"), 10, "seeds: [1, 2]");
  QCOMPARE(after, expected);
  const engine::ExperimentPlan plan = engine::planExperiment(read);
  QCOMPARE(plan.trials.size(), size_t{8});
  QCOMPARE(plan.trials[1].project.model.layers[1].hiddenSize, int64_t{8});
  QCOMPARE(plan.trials[4].project.model.layers[1].hiddenSize, int64_t{16});

  // A third optimiser: the two names no longer name each value, and go (the editor cannot
  // ask for a third); the other keys stay.
  std::vector<AxisRow> axes = file.axes();
  axes[1].values += QStringLiteral(", {type: adam, lr: 0.01}");
  const engine::Experiment grown =
      engine::parseExperiment(file.compose(axes, search, file.fixedSettings()), "e.yaml");
  QCOMPARE(grown.axes[1].values.size(), size_t{3});
  QVERIFY(grown.axes[1].names.empty());
  QCOMPARE(grown.axes[0].also.size(), size_t{1});
}

// The defect: where the text could not be edited in place (an anchored value changed apart
// from its alias), the file was written anew and every comment after the first lines was lost.
void ExperimentFileTest::anEditThatWouldDropCommentsIsRefused() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString path = experimentBeside(dir);
  const std::string before =
      "experiment:\n"
      "  axes:\n"
      "    - key: training.optimizer\n"
      "      # Adam's rate is Kingma and Ba's; SGD's the best of a sweep.\n"
      "      values:\n"
      "        - &adam {type: adam, lr: 0.003}\n"
      "        - &sgd {type: sgd, lr: 0.1}\n"
      "  seeds: [1]\n"
      "  claims:\n"
      "    - better: {training.optimizer: *adam}\n"
      "      worse: {training.optimizer: *sgd}\n"
      "      metric: valid_bpc\n"
      "      source: a test\n";
  test::ExperimentTestProject::writeFile(path, before);
  ExperimentFile file;
  QString problem;
  QVERIFY2(file.load(path, &problem), qPrintable(problem));
  std::vector<AxisRow> axes = file.axes();
  QCOMPARE(axes.size(), size_t{1});
  axes[0].values = QStringLiteral("{type: adam, lr: 0.001}, {type: sgd, lr: 0.1}");
  std::string after;
  QString refused;
  try {
    after = file.compose(axes, file.search(), file.fixedSettings());
  } catch (const engine::ConfigError& error) {
    refused = QString::fromStdString(error.what());
  }
  // Refused, naming why; nothing was composed to be written.
  QVERIFY2(refused.contains(QStringLiteral("losing the file's comments")), qPrintable(refused));
  QVERIFY(after.empty());
}

// The defect: the file edited in a text editor after the panel read it, the panel's next edit
// was written over it (composed from the old text) and the editor's changes were lost.
void ExperimentFileTest::anEditNeverReplacesChangesMadeOutside() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString path = experimentBeside(dir);
  test::ExperimentTestProject::writeFile(
      path,
      "experiment:\n  axes:\n    - key: training.optimizer.lr\n      values: [0.1]\n"
      "  seeds: [1]\n");
  ExperimentFile file;
  QString problem;
  QVERIFY2(file.load(path, &problem), qPrintable(problem));
  const std::string outside = file.text() + "# Checked against the paper on Monday.\n";
  test::ExperimentTestProject::writeFile(path, outside);
  SearchRow search = file.search();
  search.seeds = QStringLiteral("1, 2");
  const std::string edited = file.compose(file.axes(), search, file.fixedSettings());
  QString refused;
  try {
    file.save(edited);
  } catch (const std::runtime_error& error) {
    refused = QString::fromUtf8(error.what());
  }
  QVERIFY2(refused.contains(QStringLiteral("changed by another program")), qPrintable(refused));
  QFile kept(path);
  QVERIFY(kept.open(QIODevice::ReadOnly));
  QCOMPARE(kept.readAll().toStdString(), outside);
}

void ExperimentFileTest::namedValuesLabelTheTablesAndPlots() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const engine::ExperimentPlan plan =
      test::ExperimentTestProject::planIn(dir.path(), test::ExperimentTestProject::problemProject(),
                                          "experiment:\n  axes:\n"
                                          "    - key: model.layers[0].hidden_size\n"
                                          "      values: [8, 16]\n"
                                          "    - key: training.optimizer\n"
                                          "      values:\n"
                                          "        - {type: adam, lr: 0.003}\n"
                                          "        - {type: sgd, lr: 0.1}\n"
                                          "      names: [Adam, SGD]\n");
  test::fillStore(plan);
  const ExperimentSnapshot snapshot = readExperimentSnapshot(plan);
  QVERIFY2(snapshot.error.isEmpty(), qPrintable(snapshot.error));
  const auto& rows = snapshot.results;
  QCOMPARE(QString::fromStdString(rows[1].settings[1].shown), QStringLiteral("SGD"));

  // Against the optimiser: its ticks are the names.
  MetricAxisPlot plot;
  plot.setResults(plan.experiment.axes, rows, "valid_bpc", 1);
  QVERIFY(plot.isCategorical());
  auto ticker = plot.xAxis->ticker().dynamicCast<QCPAxisTickerText>();
  QVERIFY(ticker);
  QCOMPARE(ticker->ticks().values(),
           (QVector<QString>{QStringLiteral("Adam"), QStringLiteral("SGD")}));
  // Against the size: a series per optimiser, named by the name.
  plot.setResults(plan.experiment.axes, rows, "valid_bpc", 0);
  QStringList names;
  for (const QCPGraph* graph : plot.series()) names << graph->name();
  QVERIFY2(names.join(QLatin1Char('|')).contains(QStringLiteral("optimizer=SGD")),
           qPrintable(names.join(QLatin1Char('|'))));
  QVERIFY(!names.join(QLatin1Char('|')).contains(QStringLiteral("type: sgd")));
}

QTEST_MAIN(ExperimentFileTest)
#include "test_experiment_file.moc"
