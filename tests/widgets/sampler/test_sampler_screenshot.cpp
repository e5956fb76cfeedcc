// The sampler console as a researcher sees it: a small mLSTM trained for 200 steps on tiny
// Shakespeare, three completions of one prime side by side, and the alternatives popup of one
// symbol. Renders both to PNG (MRNN_SCREENSHOT_DIR, else the temporary folder) and checks what
// is on screen. Skipped when the corpus is not in ../shared/data.

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <memory>

#include "engine/sampling/sampling_options.h"
#include "trained_project.h"
#include "widgets/project/project_document.h"
#include "widgets/sampler/alternatives_menu.h"
#include "widgets/sampler/clamp_editor.h"
#include "widgets/sampler/completion_view.h"
#include "widgets/sampler/sampler_console.h"
#include "widgets/sampler/sampling_controller.h"
#include "widgets/sampler/sampling_options_form.h"

using mrnn::widgets::SamplerConsole;

class SamplerScreenshotTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void threeShakespeareCompletions();
};

void SamplerScreenshotTest::threeShakespeareCompletions() {
  const QString corpus = QStringLiteral(MRNN_SHARED_DATA "/tinyshakespeare/input.txt");
  if (!QFile::exists(corpus)) QSKIP("tiny Shakespeare is not in ../shared/data");
  const std::string yaml =
      "name: tiny shakespeare\n"
      "model:\n"
      "  input: {level: char, embedding_size: 32}\n"
      "  layers:\n"
      "    - {type: mlstm, hidden_size: 128}\n"
      "data:\n"
      "  train: " +
      corpus.toStdString() +
      "\n"
      "training:\n"
      "  batch_size: 32\n"
      "  bptt: 64\n"
      "  threads: 1\n"
      "  validate_every: 100\n"
      "  validation_symbols: 20000\n"
      "  checkpoint_every: 100\n"
      "  max_steps: 200\n"
      "  optimizer: {type: adam, lr: 0.005}\n"
      "evaluation: {batch_size: 8, bptt: 64}\n";
  mrnn::test::TrainedProject project(yaml, "");
  QVERIFY2(project.ok(), qPrintable(project.error()));

  mrnn::widgets::ProjectDocument document;
  document.load(project.projectFile());
  SamplerConsole console(document);
  console.resize(1100, 700);
  console.show();
  QVERIFY(QTest::qWaitForWindowExposed(&console));
  QTRY_VERIFY_WITH_TIMEOUT(console.controller()->hasModel(), 60000);

  auto* form = console.optionsForm();
  form->setPrime(QStringLiteral("KING RICHARD:\n"));
  form->setCompletions(3);
  form->setLength(400);
  form->setTemperature(0.8);
  form->setSeed(7);
  QSignalSpy ended(&console, &SamplerConsole::generationEnded);
  console.generate();
  QVERIFY(ended.wait(120000));
  QVERIFY2(console.message().isEmpty(), qPrintable(console.message()));
  QCOMPARE(console.completionCount(), 3);
  for (int i = 0; i < 3; ++i) QCOMPARE(console.completionView(i)->symbolCount(), 400);

  // A clamp row in the settings, as a user preparing the next run would have it.
  form->clampEditor()->addClamp(0, 42, 1.0);
  QCOMPARE(form->clampEditor()->rowCount(), 1);
  QTest::qWait(100);  // new rows are shown, and laid out, by the event loop

  const QString folder = qEnvironmentVariableIsSet("MRNN_SCREENSHOT_DIR")
                             ? qEnvironmentVariable("MRNN_SCREENSHOT_DIR")
                             : QDir::tempPath();
  QDir().mkpath(folder);
  const QString consolePng = folder + QStringLiteral("/sampler-console.png");
  QVERIFY(console.grab().save(consolePng));

  // The popup of a symbol in the second completion.
  auto* view = console.completionView(1);
  int index = 20;
  while (view->symbolRect(index).isEmpty()) ++index;
  auto* menu = console.showAlternatives(1, index);
  QVERIFY(menu);
  QTRY_VERIFY(menu->isVisible());
  const QString menuPng = folder + QStringLiteral("/sampler-alternatives.png");
  QVERIFY(menu->grab().save(menuPng));
  menu->close();

  // An error as it is shown: a prime with a symbol Shakespeare never used.
  form->setPrime(QStringLiteral("ζ"));
  console.generate();
  QVERIFY(ended.wait(120000));
  QVERIFY2(console.message().contains(QStringLiteral("not in the vocabulary")),
           qPrintable(console.message()));
  const QString errorPng = folder + QStringLiteral("/sampler-error.png");
  QVERIFY(console.grab().save(errorPng));
  qInfo("saved %s, %s and %s", qPrintable(consolePng), qPrintable(menuPng), qPrintable(errorPng));
}

QTEST_MAIN(SamplerScreenshotTest)
#include "test_sampler_screenshot.moc"
