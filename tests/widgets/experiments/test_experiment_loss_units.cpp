// A problem's own figures in the Experiments panel's views. A real-valued output's (the
// addition problem's squared error): the store keeps them in bits (nats / ln 2); the trials
// table, the results table, the metric plot and the metric box give them back as squared
// errors. A long-range problem's share of test sequences wrong and the seeds that solved it.
#include <QComboBox>
#include <QDir>
#include <QListView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_store.h"
#include "experiment_test_project.h"
#include "experiment_test_store.h"
#include "widgets/display_format.h"
#include "widgets/experiments/experiment_snapshot.h"
#include "widgets/experiments/metric_axis_plot.h"
#include "widgets/experiments/results_table_model.h"
#include "widgets/experiments/results_view.h"
#include "widgets/experiments/trials_table.h"

using namespace mrnn;
using namespace mrnn::widgets;

class ExperimentLossUnitsTest : public QObject {
  Q_OBJECT

 private slots:
  void aRealValuedOutputsFiguresAreSquaredErrors();
  void aLongRangeProblemShowsTheShareWrongAndTheSeedsThatSolvedIt();
};

void ExperimentLossUnitsTest::aRealValuedOutputsFiguresAreSquaredErrors() {
  // The addition problem's loss is a squared error; the store keeps it in bits (nats / ln 2).
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const engine::ExperimentPlan plan = test::ExperimentTestProject::planIn(
      dir.path(),
      "name: base\nmodel:\n"
      "  input: {level: word, embedding_size: 0, values: 1}\n"
      "  layers: [{type: rnn, hidden_size: 8}]\n"
      "  output: {type: linear}\n"
      "data:\n  synthetic: addition\n"
      "  problem: {length: 20, train: 100, valid: 10, test: 10}\n"
      "training: {max_steps: 40, optimizer: {type: adam}}\n",
      "experiment:\n  axes:\n    - key: training.optimizer.lr\n      values: [0.001, 0.002]\n"
      "  seeds: [1]\n");
  test::fillStore(plan);  // best validation 2.05 bits for the first configuration
  const ExperimentSnapshot snapshot = readExperimentSnapshot(plan);
  QVERIFY2(snapshot.error.isEmpty(), qPrintable(snapshot.error));
  const QString first = formatLoss(2.05 * std::log(2.0));

  TrialsTable trials;
  trials.setPlan(plan);
  trials.setProgress(snapshot);
  QCOMPARE(trials.horizontalHeaderItem(TrialsTable::ValidColumn)->text(),
           QStringLiteral("Valid sq. error"));
  QCOMPARE(trials.item(0, TrialsTable::ValidColumn)->text(), first);

  ResultsTableModel results;
  results.setResults({QStringLiteral("lr")}, {QStringLiteral("training.optimizer.lr")},
                     snapshot.results);
  QCOMPARE(results.headerData(results.validColumn(), Qt::Horizontal).toString(),
           QStringLiteral("Valid sq. error"));
  QCOMPARE(results.index(0, results.validColumn()).data().toString(), first);
  QCOMPARE(MetricAxisPlot::metricLabel("valid_bpc", snapshot.results),
           QStringLiteral("validation squared error"));
  // The metric box offers no perplexity for a squared error.
  ResultsView view;
  view.setMetric("test_perplexity");
  view.setResults(plan, snapshot.results);
  QCOMPARE(view.metric(), std::string("test_bpc"));
  auto* list = qobject_cast<QListView*>(view.metricChooser()->view());
  QVERIFY(list);
  for (int i = 0; i < view.metricChooser()->count(); ++i) {
    const QString name = view.metricChooser()->itemData(i).toString();
    QCOMPARE(list->isRowHidden(i), name.contains(QStringLiteral("perplexity")));
  }
  QCOMPARE(view.metricChooser()->currentText(), QStringLiteral("test squared error"));
}

void ExperimentLossUnitsTest::aLongRangeProblemShowsTheShareWrongAndTheSeedsThatSolvedIt() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const engine::ExperimentPlan plan = test::ExperimentTestProject::planIn(
      dir.path(), test::ExperimentTestProject::problemProject(),
      "experiment:\n  axes:\n    - key: training.optimizer.lr\n      values: [0.001, 0.002]\n"
      "  seeds: [1, 2]\n");
  test::fillStore(plan);
  {
    // The runs' tests as the trainer records them: the first configuration solved by both
    // seeds, the second by one.
    engine::RunStore store(plan.folder() + "/runs.sqlite");
    const double wrong[4] = {0.0, 0.002, 0.004, 0.6};
    for (const engine::RunRecord& run : store.listRuns()) {
      store.appendMetrics(run.id, {{engine::metric::kTestErrorRate, 40, 0.0, 1.0,
                                    wrong[static_cast<size_t>(run.id - 1) % 4]}});
    }
  }
  const ExperimentSnapshot snapshot = readExperimentSnapshot(plan);
  QVERIFY2(snapshot.error.isEmpty(), qPrintable(snapshot.error));

  ResultsTableModel results;
  results.setResults({QStringLiteral("lr")}, {QStringLiteral("training.optimizer.lr")},
                     snapshot.results);
  QVERIFY(results.errorRateColumn() > results.testColumn());
  QCOMPARE(results.headerData(results.errorRateColumn(), Qt::Horizontal).toString(),
           QStringLiteral("Test wrong"));
  QCOMPARE(results.headerData(results.solvedColumn(), Qt::Horizontal).toString(),
           QStringLiteral("Solved"));
  QCOMPARE(results.index(0, results.errorRateColumn()).data().toString(),
           QStringLiteral("0.1% ± 0.1%"));
  QCOMPARE(results.index(0, results.solvedColumn()).data().toString(), QStringLiteral("2/2"));
  QCOMPARE(results.index(1, results.solvedColumn()).data().toString(), QStringLiteral("1/2"));
  QVERIFY(results.index(1, results.solvedColumn())
              .data(Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("0.4%, 60.0%")));
  QCOMPARE(results.headerData(results.stateColumn(), Qt::Horizontal).toString(),
           QStringLiteral("State"));
  QCOMPARE(results.index(0, results.stateColumn()).data().toString(), QStringLiteral("done"));

  // The metric box offers the share wrong here, and plots it.
  ResultsView view;
  view.setResults(plan, snapshot.results);
  view.setMetric("test_error_rate");
  QCOMPARE(view.metric(), std::string("test_error_rate"));
  QCOMPARE(view.metricChooser()->currentText(), QStringLiteral("share of test sequences wrong"));
  // A language model's results have neither the columns nor the metric.
  std::vector<engine::ConfigurationResult> plain = snapshot.results;
  for (auto& row : plain) row.scoresSequences = false;
  results.setResults({QStringLiteral("lr")}, {QStringLiteral("training.optimizer.lr")}, plain);
  QCOMPARE(results.errorRateColumn(), -1);
  QCOMPARE(results.headerData(results.testColumn() + 1, Qt::Horizontal).toString(),
           QStringLiteral("Reference"));
  view.setResults(plan, plain);
  QCOMPARE(view.metric(), std::string("test_bpc"));
}

QTEST_MAIN(ExperimentLossUnitsTest)
#include "test_experiment_loss_units.moc"
