// UnsavedEditsKeeper: a project's unsaved edits are kept within a second of each change,
// outside the project, so that a window gone without asking (a crash, a kill) loses nothing;
// a save or an undo back to the file's text forgets them; one window keeps a project's edits
// at a time; a damaged or hostile kept file is named and set aside, never trusted, and no
// user's file is written through it.

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

#include "engine/io/fnv1a.h"
#include "widgets/project/project_document.h"
#include "widgets/project/unsaved_edits_keeper.h"

namespace {

using mrnn::widgets::ProjectDocument;
using mrnn::widgets::UnsavedEditsKeeper;

const char* const kProject = R"(name: Keep test
# the width we settled on
model:
  input: {level: char, embedding_size: 16, vocab_size: 20}
  layers:
    - {type: lstm, hidden_size: 32}
)";

void setHidden(ProjectDocument& document, int size) {
  auto model = document.project().model;
  model.layers[0].hiddenSize = size;
  document.editModel(model, QStringLiteral("Set hidden size"));
}

QByteArray contentsOf(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(unreadable)");
}

// A window's share of the work: the document and its keeper.
struct Window {
  ProjectDocument document;
  UnsavedEditsKeeper keeper{document};
  Window(const QString& project, const QString& folder) {
    keeper.setFolder(folder);
    document.load(project);
  }
};

}  // namespace

class UnsavedEditsKeeperTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    project_ = std::make_unique<QTemporaryDir>();
    kept_ = std::make_unique<QTemporaryDir>();
    path_ = project_->filePath(QStringLiteral("project.yaml"));
    QFile file(path_);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kProject);
  }

  // A crash: nothing is asked and nothing closes, yet the edits are on disk within a second.
  void editsAreKeptWithoutAnyQuitAndComeBack() {
    {
      Window window(path_, kept_->path());
      setHidden(window.document, 48);
      QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(window.keeper.keptFile()), 3000);
    }  // gone, as a killed process is
    QCOMPARE(contentsOf(path_), QByteArray(kProject));
    Window next(path_, kept_->path());
    QString problem;
    const auto kept = next.keeper.kept(&problem);
    QVERIFY2(kept.has_value(), qPrintable(problem));
    QVERIFY(QString::fromStdString(kept->text).contains(QStringLiteral("hidden_size: 48")));
    QVERIFY(QString::fromStdString(kept->text).contains(QStringLiteral("width we settled on")));
    QCOMPARE(kept->basedOn, mrnn::engine::fnv1a(kProject));
    // The folder is the user's alone: a project's text can name private paths.
    QCOMPARE(QFile::permissions(kept_->path()) & (QFile::ReadGroup | QFile::ReadOther),
             QFile::Permissions());
  }

  // Saved, or undone back to the file's text: nothing is left to offer.
  void aSaveOrAnUndoToTheFilesTextForgetsThem() {
    Window window(path_, kept_->path());
    setHidden(window.document, 48);
    QVERIFY(window.keeper.keepNow());
    QVERIFY(QFile::exists(window.keeper.keptFile()));
    window.document.undoStack()->undo();
    QVERIFY(!QFile::exists(window.keeper.keptFile()));
    setHidden(window.document, 64);
    QVERIFY(window.keeper.keepNow());
    window.document.save();
    QVERIFY(!QFile::exists(window.keeper.keptFile()));
    QTest::qWait(1300);  // no late write brings them back
    QVERIFY(!QFile::exists(window.keeper.keptFile()));
  }

  // Two windows on one project: the first keeps its edits; the second neither writes over
  // them nor offers them while the first is open.
  void oneWindowKeepsAProjectsEditsAtATime() {
    auto first = std::make_unique<Window>(path_, kept_->path());
    setHidden(first->document, 48);
    QVERIFY(first->keeper.keepNow());
    Window second(path_, kept_->path());
    QVERIFY(second.keeper.keptFile().isEmpty());
    QVERIFY(!second.keeper.kept().has_value());
    setHidden(second.document, 96);
    QString problem;
    QVERIFY(!second.keeper.keepNow(&problem));
    QVERIFY2(problem.contains(QStringLiteral("another workbench window")), qPrintable(problem));
    const QString file = first->keeper.keptFile();
    QVERIFY(contentsOf(file).contains("hidden_size: 48"));
    first.reset();
    Window third(path_, kept_->path());  // the first window is gone: its edits are offered
    const auto kept = third.keeper.kept();
    QVERIFY(kept.has_value());
    QVERIFY(QString::fromStdString(kept->text).contains(QStringLiteral("hidden_size: 48")));
  }

  // A damaged kept file is named and set aside (never trusted, never written over), and a
  // symbolic link put in its place is not written through.
  void aDamagedOrHostileKeptFileIsNamedAndLeftAlone() {
    QString file;
    {
      Window window(path_, kept_->path());
      setHidden(window.document, 48);
      QVERIFY(window.keeper.keepNow());
      file = window.keeper.keptFile();
    }
    QByteArray cut = contentsOf(file);
    cut.chop(5);
    {
      QFile damaged(file);
      QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
      damaged.write(cut);
    }
    Window window(path_, kept_->path());
    QString problem;
    QVERIFY(!window.keeper.kept(&problem).has_value());
    QVERIFY2(problem.contains(file) && problem.contains(QStringLiteral("not written whole")) &&
                 problem.contains(QStringLiteral("set aside")),
             qPrintable(problem));
    QVERIFY(!QFile::exists(file));
    const QStringList aside =
        QDir(kept_->path()).entryList({QStringLiteral("*.unreadable-*")}, QDir::Files);
    QCOMPARE(aside.size(), 1);
    QCOMPARE(contentsOf(QDir(kept_->path()).filePath(aside.at(0))), cut);

    // A link to a file of the user's where the kept file goes: refused, the file untouched.
    const QString users = project_->filePath(QStringLiteral("thesis.tex"));
    {
      QFile thesis(users);
      QVERIFY(thesis.open(QIODevice::WriteOnly));
      thesis.write("\\chapter{Results}\n");
    }
    QVERIFY(QFile::link(users, file));
    setHidden(window.document, 64);
    QVERIFY(!window.keeper.keepNow(&problem));
    QCOMPARE(contentsOf(users), QByteArray("\\chapter{Results}\n"));
  }

  // A keep that fails (a full disk reads the same; here a folder stands where the file goes,
  // which fails for root too): said once, not at every edit.
  void aKeepThatFailsIsSaidOnce() {
    Window window(path_, kept_->path());
    QSignalSpy failed(&window.keeper, &UnsavedEditsKeeper::keepingFailed);
    QVERIFY(QDir().mkpath(window.keeper.keptFile()));
    setHidden(window.document, 48);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 3000);
    setHidden(window.document, 64);
    QTest::qWait(1300);
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.at(0).at(0).toString().contains(window.keeper.keptFile()),
             qPrintable(failed.at(0).at(0).toString()));
  }

  // Save As writes the edits to another project: the first project has nothing kept to offer.
  void aSaveAsForgetsWhatWasKeptForTheProjectItLeft() {
    Window window(path_, kept_->path());
    setHidden(window.document, 48);
    QVERIFY(window.keeper.keepNow());
    const QString before = window.keeper.keptFile();
    const QString other = project_->filePath(QStringLiteral("copy/project.yaml"));
    QVERIFY(QDir().mkpath(project_->filePath(QStringLiteral("copy"))));
    window.document.saveAs(other);
    window.keeper.discard(path_);
    QVERIFY(!QFile::exists(before));
    QVERIFY(window.keeper.keptFile() != before);
  }

  // A new project (from a template, never saved) is kept under a name of its own, offered to
  // the next window once its own has gone, and forgotten once saved.
  void aNewProjectIsKeptAndOfferedToTheNextWindow() {
    const auto keptNew = [&] {
      return QDir(kept_->path()).entryList({QStringLiteral("new-*.kept-edits")}, QDir::Files);
    };
    QString file;
    {
      ProjectDocument document;
      UnsavedEditsKeeper keeper(document);
      keeper.setFolder(kept_->path());
      document.loadTemplate(path_);
      setHidden(document, 48);
      QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(keeper.keptFile()), 3000);
      file = keeper.keptFile();
      QVERIFY2(QFileInfo(file).fileName().startsWith(QStringLiteral("new-")), qPrintable(file));
      ProjectDocument other;  // another window, while this one is open: not offered there
      UnsavedEditsKeeper otherKeeper(other);
      otherKeeper.setFolder(kept_->path());
      QVERIFY(otherKeeper.keptWithoutTheirFile().empty());
    }
    ProjectDocument next;
    UnsavedEditsKeeper keeper(next);
    keeper.setFolder(kept_->path());
    const auto found = keeper.keptWithoutTheirFile();
    QCOMPARE(found.size(), size_t{1});
    QCOMPARE(found.front().file, file);
    QVERIFY(found.front().edits.project.empty());
    QVERIFY(QString::fromStdString(found.front().edits.text).contains(QStringLiteral("48")));
    next.loadUntitledText(found.front().edits.text, "kept");
    QVERIFY(next.isUntitled() && next.isModified());
    QCOMPARE(next.project().model.layers.at(0).hiddenSize, int64_t{48});
    QVERIFY(keeper.keepNow());
    keeper.forgetKept(file);
    QVERIFY(!QFile::exists(file));
    QCOMPARE(keptNew().size(), 1);  // this window's own
    // Saved: nothing of it is kept any more.
    QVERIFY(QDir().mkpath(project_->filePath(QStringLiteral("saved"))));
    next.saveAs(project_->filePath(QStringLiteral("saved/project.yaml")));
    QVERIFY2(keptNew().isEmpty(), qPrintable(keptNew().join(QLatin1Char(' '))));
  }

  // A project's kept edits are offered by the window opening its path; when that file has gone
  // (its folder renamed), by the next window to start: not before, and not while it is there.
  void aGoneProjectsEditsAreOfferedToTheNextWindow() {
    QString file;
    {
      Window window(path_, kept_->path());
      setHidden(window.document, 40);
      QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(window.keeper.keptFile()), 3000);
      file = window.keeper.keptFile();
      Window other(path_, kept_->path());  // its window still open: not offered
      QVERIFY(QFile::rename(path_, path_ + QStringLiteral(".away")));
      QVERIFY(other.keeper.keptWithoutTheirFile().empty());
      QVERIFY(QFile::rename(path_ + QStringLiteral(".away"), path_));
    }
    ProjectDocument next;
    UnsavedEditsKeeper keeper(next);
    keeper.setFolder(kept_->path());
    QVERIFY2(keeper.keptWithoutTheirFile().empty(), "its file is there: opening it offers them");
    QVERIFY(QFile::remove(path_));
    const auto found = keeper.keptWithoutTheirFile();
    QCOMPARE(found.size(), size_t{1});
    QCOMPARE(found.front().file, file);
    QCOMPARE(QString::fromStdString(found.front().edits.project), path_);
    QVERIFY(QString::fromStdString(found.front().edits.text).contains(QStringLiteral("40")));
    keeper.forgetKept(file);
    QVERIFY(!QFile::exists(file));
  }

 private:
  std::unique_ptr<QTemporaryDir> project_;
  std::unique_ptr<QTemporaryDir> kept_;
  QString path_;
};

QTEST_MAIN(UnsavedEditsKeeperTest)
#include "test_unsaved_edits_keeper.moc"
