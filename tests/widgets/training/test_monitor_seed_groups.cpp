// The monitor's seeds as groups: runs of one configuration trained with different seeds
// (written to a store as a trainer would) drawn as one mean with a ± std band, and back.
#include <qcustomplot.h>
#include <QCheckBox>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

#include "engine/config/project_file.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "training_test_project.h"
#include "widgets/project/project_document.h"
#include "widgets/training/seed_band.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_monitor_panel.h"

using mrnn::widgets::ProjectDocument;
using mrnn::widgets::TrainingCharts;
using mrnn::widgets::TrainingMonitorPanel;
using mrnn::widgets::test::TrainingTestProject;
using Chart = TrainingCharts::Chart;
using Series = TrainingCharts::Series;

class MonitorSeedGroupsTest : public QObject {
  Q_OBJECT

 private slots:
  void seedsAsGroupsDrawOneMeanPerConfiguration();
};

void MonitorSeedGroupsTest::seedsAsGroupsDrawOneMeanPerConfiguration() {
  // Three seeds of one configuration and one other configuration, written as a trainer would.
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  {
    mrnn::engine::RunStore store(mrnn::engine::RunPaths::database(project.folder().toStdString()));
    const auto add = [&](uint64_t seed, int64_t hidden, double start) {
      mrnn::engine::Project config = document.project();
      config.training.seed = seed;
      config.model.init.seed = seed;
      config.model.layers.at(0).hiddenSize = hidden;
      config.name = "grid, seed " + std::to_string(seed);
      mrnn::engine::RunRecord run;
      run.name = config.name;
      run.modelType = "lstm";
      run.configYaml = mrnn::engine::projectToYaml(config);
      const int64_t id = store.createRun(run);
      std::vector<mrnn::engine::MetricPoint> points;
      for (int64_t step = 1; step <= 20; ++step) {
        points.push_back({"train/loss", step, step / 20.0, step * 0.1, start / step});
        if (step % 10 == 0) points.push_back({"valid/bpc", step, step / 20.0, step * 0.1, start});
      }
      store.appendMetrics(id, points);
      store.updateProgress(id, 20, 2.0);
      store.setStatus(id, mrnn::engine::RunStatus::Finished);
      return id;
    };
    add(1, 16, 3.0);
    add(2, 16, 3.2);
    add(3, 16, 3.4);
    add(1, 32, 2.5);
  }
  TrainingMonitorPanel monitor(document);
  QVERIFY(!monitor.groupsSeeds());  // each run on its own until asked
  QSignalSpy loaded(&monitor, &TrainingMonitorPanel::overlaysLoaded);
  monitor.setOverlayRuns({1, 2, 3, 4});
  QVERIFY(loaded.wait(10000));
  QCOMPARE(monitor.charts()->overlayCount(), 4);
  monitor.groupSeedsCheck()->click();
  QVERIFY(loaded.wait(10000));
  QCOMPARE(loaded.last().at(0).toInt(), 2);
  QCOMPARE(monitor.charts()->overlayCount(), 2);
  QVERIFY(monitor.charts()->overlayBand(0, Chart::Validation));
  QVERIFY(!monitor.charts()->overlayBand(1, Chart::Validation));
  // The group's validation: mean 3.2 and sample std 0.2 of 3.0, 3.2 and 3.4.
  const QCPGraph* mean = monitor.charts()->overlayGraph(0, Series::Validation);
  QCOMPARE(mean->dataCount(), 2);
  QVERIFY(std::fabs(mean->data()->at(0)->value - 3.2) < 1e-12);
  const auto* band = monitor.charts()->overlayBand(0, Chart::Validation);
  QVERIFY(std::fabs(band->upper()->data()->at(0)->value - 3.4) < 1e-12);
  QVERIFY(std::fabs(band->lower()->data()->at(0)->value - 3.0) < 1e-12);
  QCOMPARE(monitor.charts()->overlayGraph(0, Series::LossSmoothed)->name(),
           QStringLiteral("grid · mean ± std of 3 runs"));
  // The selection is still the four runs: off again, four lines.
  QCOMPARE(monitor.overlayRuns(), (QList<qint64>{1, 2, 3, 4}));
  monitor.setGroupSeeds(false);
  QVERIFY(loaded.wait(10000));
  QCOMPARE(monitor.charts()->overlayCount(), 4);
}

QTEST_MAIN(MonitorSeedGroupsTest)
#include "test_monitor_seed_groups.moc"
