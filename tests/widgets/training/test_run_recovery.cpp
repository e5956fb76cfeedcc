// The runs panel when the run database was lost or is damaged: the banner offers to record
// the runs again from their checkpoints (and to set a damaged database aside first), and the
// runs come back to the table.

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>
#include <memory>

#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/training/run_recovery.h"
#include "training_test_project.h"
#include "widgets/project/project_document.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/runs_table_model.h"
#include "widgets/training/training_controller.h"

using mrnn::widgets::ProjectDocument;
using mrnn::widgets::RunBanner;
using mrnn::widgets::RunsPanel;
using mrnn::widgets::TrainingController;
using mrnn::widgets::test::TrainingTestProject;

class RunRecoveryTest : public QObject {
  Q_OBJECT

 private slots:
  // Each test has a real run, trained to its end in a project of its own.
  void init() {
    project_ = std::make_unique<TrainingTestProject>();
    document_ = std::make_unique<ProjectDocument>();
    QCOMPARE(project_->loadInto(*document_), QString());
    TrainingController controller(*document_);
    QSignalSpy finished(&controller, &TrainingController::finished);
    QVERIFY(controller.start());
    QVERIFY(finished.wait(60000));
    runId_ = controller.runId();
    database_ = project_->folder() + QStringLiteral("/runs.sqlite");
  }

  void cleanup() {
    document_.reset();
    project_.reset();
  }

  // The defect: with the run database deleted (or moved aside), the panel said "No runs yet"
  // though the run's checkpoints were in the project, and nothing could bring it back.
  void runsWhoseDatabaseWentAreOfferedAndRecovered() {
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
      QFile::remove(database_ + suffix);
    }
    RunsPanel panel(*document_);
    panel.show();
    QCOMPARE(panel.model()->rowCount(), 0);
    QVERIFY(panel.banner()->isVisible());
    QVERIFY2(panel.banner()->text().contains(QStringLiteral("is not in the run database")),
             qPrintable(panel.banner()->text()));
    QVERIFY(panel.banner()->hasAction());
    panel.banner()->triggerAction();
    QVERIFY(panel.isRecovering());
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isRecovering(), 30000);
    QVERIFY2(panel.banner()->text().contains(QStringLiteral("Recovered run %1").arg(runId_)),
             qPrintable(panel.banner()->text()));
    QCOMPARE(panel.model()->rowCount(), 1);
    QCOMPARE(panel.selectedRunIds(), QList<qint64>{runId_});
    // Once recorded, refreshing offers nothing again.
    panel.banner()->hide();
    panel.refresh();
    QVERIFY(!panel.banner()->isVisible());
  }

  // Recorded by another program (`mrnn runs recover`) while the offer is in view: the offer
  // goes, its link having nothing left to do.
  void anOfferGoesOnceItsRunsAreRecordedElsewhere() {
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
      QFile::remove(database_ + suffix);
    }
    RunsPanel panel(*document_);
    panel.show();
    QVERIFY(panel.banner()->isVisible());
    QCOMPARE(mrnn::engine::recoverRuns(project_->folder().toStdString()).recovered.size(),
             size_t{1});
    panel.refresh();
    QVERIFY(!panel.banner()->isVisible());
    QCOMPARE(panel.model()->rowCount(), 1);
  }

  // A failure in view (a delete whose files could not all go) is not covered by the offer,
  // which comes once that is closed.
  void theOfferWaitsWhileAFailureIsInView() {
    RunsPanel panel(*document_);
    panel.show();
    QVERIFY(!panel.banner()->isVisible());
    panel.banner()->showMessage(RunBanner::Kind::Failure, QStringLiteral("Not deleted"),
                                QStringLiteral("a file could not be removed"));
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
      QFile::remove(database_ + suffix);
    }
    panel.refresh();
    QVERIFY2(panel.banner()->text().startsWith(QStringLiteral("Not deleted")),
             qPrintable(panel.banner()->text()));
    panel.banner()->hide();
    panel.refresh();
    QVERIFY(panel.banner()->isVisible());
    QVERIFY2(panel.banner()->text().contains(QStringLiteral("is not in the run database")),
             qPrintable(panel.banner()->text()));
  }

  // A damaged database: said in the panel's words, set aside whole, and its runs recovered.
  void aDamagedDatabaseIsSetAsideAndItsRunsRecovered() {
    QByteArray garbage(8192, '\0');
    for (int i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>((i * 7919) % 251);
    for (const QString& suffix : {QStringLiteral("-wal"), QStringLiteral("-shm")}) {
      QFile::remove(database_ + suffix);
    }
    {
      QFile file(database_);
      QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
      file.write(garbage);
    }
    RunsPanel panel(*document_);
    panel.show();
    QVERIFY(panel.banner()->isVisible());
    QCOMPARE(panel.banner()->kind(), RunBanner::Kind::Failure);
    QVERIFY2(panel.banner()->text().contains(QStringLiteral("cannot be read")),
             qPrintable(panel.banner()->text()));
    QVERIFY2(!panel.banner()->text().contains(QStringLiteral("mrnn runs")),
             "the window's words, not the command line's");
    panel.banner()->triggerAction();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isRecovering(), 30000);
    QVERIFY2(panel.banner()->kind() == RunBanner::Kind::Success,
             qPrintable(panel.banner()->text()));
    QCOMPARE(panel.model()->rowCount(), 1);
    const QStringList aside =
        QDir(project_->folder()).entryList({QStringLiteral("runs.sqlite.damaged-*")}, QDir::Files);
    QCOMPARE(aside.size(), 1);
    QFile kept(project_->folder() + QLatin1Char('/') + aside.first());
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), garbage);
  }

 private:
  std::unique_ptr<TrainingTestProject> project_;
  std::unique_ptr<ProjectDocument> document_;
  qint64 runId_ = 0;
  QString database_;
};

QTEST_MAIN(RunRecoveryTest)
#include "test_run_recovery.moc"
