// SamplerConsole on a tiny model trained in the test: the checkpoint list, N columns side by
// side, symbols coloured by their probability, the hover text, the alternatives popup and
// branching from it, stopping, clamps, and errors in words.

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHelpEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextEdit>
#include <QToolTip>

#include <memory>

#include "engine/sampling/sampling_options.h"
#include "engine/store/run_store.h"
#include "trained_project.h"
#include "widgets/project/project_document.h"
#include "widgets/sampler/alternatives_menu.h"
#include "widgets/sampler/clamp_editor.h"
#include "widgets/sampler/completion_view.h"
#include "widgets/sampler/probability_scale.h"
#include "widgets/sampler/sampler_console.h"
#include "widgets/sampler/sampling_controller.h"
#include "widgets/sampler/sampling_options_form.h"

using mrnn::widgets::AlternativesMenu;
using mrnn::widgets::CompletionView;
using mrnn::widgets::ProbabilityScale;
using mrnn::widgets::ProjectDocument;
using mrnn::widgets::SamplerConsole;

namespace {

constexpr int kWait = 60000;

// The char format of the character at document position `position`.
QTextCharFormat formatAt(const QTextEdit* edit, int position) {
  QTextCursor cursor(edit->document());
  cursor.setPosition(position + 1);  // charFormat() is the format before the cursor
  return cursor.charFormat();
}

QPoint centre(const QRect& rect) {
  return rect.center();
}

}  // namespace

class SamplerConsoleTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void listsTheRunsCheckpointsBestFirst();
  void withoutACheckpointGenerateSaysSoInWords();
  void showsNColumnsColouredByProbability();
  void hoverShowsTheSymbolsProbability();
  void clickingASymbolListsItsAlternatives();
  void choosingAnAlternativeContinuesFromIt();
  void generatingAgainGivesNewText();
  void stopButtonEndsGenerationEarly();
  void primeOutsideTheVocabularyIsShownInWords();
  void clampRowsFollowTheModelAndReachTheOptions();
  void ctrlReturnGeneratesAndEscapeStops();
  void refreshListsANewRunsCheckpoint();
  void openingAProjectWithoutRunsLetsTheModelGo();
  void wordModelsJoinWordsWithPlainSpaces();
  void viewShowsLineBreaksAndSplitCharacters();
  void primeStaysInViewUntilTheReaderScrollsDown();

 private:
  void generateAndWait(int completions, int length, double temperature = 1.0, int seed = 1);

  std::unique_ptr<mrnn::test::TrainedProject> project_;
  std::unique_ptr<ProjectDocument> document_;
  std::unique_ptr<SamplerConsole> console_;
};

void SamplerConsoleTest::initTestCase() {
  project_ = std::make_unique<mrnn::test::TrainedProject>(mrnn::test::tinyProjectYaml(60),
                                                          mrnn::test::lexiconText(20000));
  QVERIFY2(project_->ok(), qPrintable(project_->error()));
}

void SamplerConsoleTest::init() {
  document_ = std::make_unique<ProjectDocument>();
  document_->load(project_->projectFile());
  console_ = std::make_unique<SamplerConsole>(*document_);
  console_->resize(1100, 700);
  console_->show();
  QVERIFY(QTest::qWaitForWindowExposed(console_.get()));
  // The newest run's best checkpoint loads by itself.
  QTRY_VERIFY_WITH_TIMEOUT(console_->controller()->hasModel(), kWait);
  QTRY_VERIFY_WITH_TIMEOUT(!console_->controller()->isBusy(), kWait);
}

void SamplerConsoleTest::cleanup() {
  console_.reset();
  document_.reset();
}

void SamplerConsoleTest::generateAndWait(int completions, int length, double temperature,
                                         int seed) {
  auto* form = console_->optionsForm();
  form->setPrime(QStringLiteral("the "));
  form->setCompletions(completions);
  form->setLength(length);
  form->setTemperature(temperature);
  form->setSeed(seed);
  QSignalSpy ended(console_.get(), &SamplerConsole::generationEnded);
  auto* button = console_->findChild<QPushButton*>(QStringLiteral("generateButton"));
  QVERIFY(button && button->isEnabled());
  QTest::mouseClick(button, Qt::LeftButton);
  QVERIFY(ended.wait(kWait));
  QVERIFY2(console_->message().isEmpty(), qPrintable(console_->message()));
}

void SamplerConsoleTest::listsTheRunsCheckpointsBestFirst() {
  auto* combo = console_->findChild<QComboBox*>(QStringLiteral("checkpointCombo"));
  QVERIFY(combo);
  QCOMPARE(combo->count(), 2);
  // Each entry names the run, its model and size, the kind and the step.
  QVERIFY2(QRegularExpression(QStringLiteral("^Run 1 · mlstm [0-9]+ · [0-9,]+ params · best"))
               .match(combo->itemText(0))
               .hasMatch(),
           qPrintable(combo->itemText(0)));
  QVERIFY2(QRegularExpression(
               QStringLiteral("^Run 1 · mlstm [0-9]+ · [0-9,]+ params · latest · step 60"))
               .match(combo->itemText(1))
               .hasMatch(),
           qPrintable(combo->itemText(1)));
  QCOMPARE(combo->currentIndex(), 0);
  QCOMPARE(console_->controller()->modelInfo().checkpoint, project_->bestCheckpoint());
}

void SamplerConsoleTest::withoutACheckpointGenerateSaysSoInWords() {
  ProjectDocument untitled;
  SamplerConsole console(untitled);
  auto* combo = console.findChild<QComboBox*>(QStringLiteral("checkpointCombo"));
  QCOMPARE(combo->count(), 0);
  QVERIFY(combo->placeholderText().contains(QStringLiteral("train")));
  console.generate();
  QVERIFY2(console.message().startsWith(QStringLiteral("No checkpoint yet")),
           qPrintable(console.message()));
  QVERIFY(!console.controller()->isBusy());
}

void SamplerConsoleTest::showsNColumnsColouredByProbability() {
  generateAndWait(3, 40, 1.5, 2);
  QCOMPARE(console_->completionCount(), 3);
  for (int column = 0; column < 3; ++column) {
    CompletionView* view = console_->completionView(column);
    QCOMPARE(view->symbolCount(), 40);
    std::string text;
    for (int i = 0; i < view->symbolCount(); ++i) text += view->symbol(i).text;
    QCOMPARE(text, view->completion().text);
    QVERIFY(view->textEdit()->toPlainText().startsWith(QStringLiteral("the ")));
    if (column > 0) {
      // Side by side: same top, each to the right of the one before.
      CompletionView* before = console_->completionView(column - 1);
      QCOMPARE(view->y(), before->y());
      QVERIFY(view->x() >= before->x() + before->width());
    }
  }
  // The prime is plain.
  const CompletionView* view = console_->completionView(0);
  QCOMPARE(formatAt(view->textEdit(), 0).background().style(), Qt::NoBrush);
  // The least and most probable symbols of the first completion: each on its colour, the
  // improbable one reddish, the probable one greenish.
  int low = 0, high = 0;
  for (int i = 0; i < view->symbolCount(); ++i) {
    if (view->symbol(i).text.find_first_not_of(" \n") == std::string::npos) continue;
    if (view->symbol(i).probability < view->symbol(low).probability) low = i;
    if (view->symbol(i).probability > view->symbol(high).probability) high = i;
  }
  const double pLow = view->symbol(low).probability;
  const double pHigh = view->symbol(high).probability;
  QVERIFY2(pLow < 0.3 && pHigh > 0.7, qPrintable(QStringLiteral("%1 %2").arg(pLow).arg(pHigh)));
  const QColor lowColour =
      formatAt(view->textEdit(), view->span(low).colourBegin).background().color();
  const QColor highColour =
      formatAt(view->textEdit(), view->span(high).colourBegin).background().color();
  QCOMPARE(lowColour, ProbabilityScale::background(pLow));
  QCOMPARE(highColour, ProbabilityScale::background(pHigh));
  QVERIFY(lowColour.red() > lowColour.green());
  QVERIFY(highColour.green() > highColour.red());
  QCOMPARE(ProbabilityScale::background(0.0), QColor::fromHsvF(0.0f, 0.40f, 1.0f));
  QVERIFY(console_->status().startsWith(QStringLiteral("Done: 120 symbols")));
}

void SamplerConsoleTest::hoverShowsTheSymbolsProbability() {
  generateAndWait(1, 30);
  CompletionView* view = console_->completionView(0);
  int index = 0;
  while (view->symbolRect(index).isEmpty()) ++index;
  const QString expected = ProbabilityScale::percent(view->symbol(index).probability);
  QVERIFY(view->toolTipFor(index).contains(expected));
  QWidget* viewport = view->textEdit()->viewport();
  const QPoint at = centre(view->symbolRect(index));
  QCOMPARE(view->symbolAt(at), index);
  QHelpEvent help(QEvent::ToolTip, at, viewport->mapToGlobal(at));
  QApplication::sendEvent(viewport, &help);
  QTRY_VERIFY(QToolTip::isVisible());
  QVERIFY2(QToolTip::text().contains(expected), qPrintable(QToolTip::text()));
  QToolTip::hideText();
}

void SamplerConsoleTest::clickingASymbolListsItsAlternatives() {
  generateAndWait(2, 30);
  CompletionView* view = console_->completionView(1);
  int index = 5;
  while (view->symbolRect(index).isEmpty()) ++index;
  QWidget* viewport = view->textEdit()->viewport();
  QTest::mouseClick(viewport, Qt::LeftButton, {}, centre(view->symbolRect(index)));
  AlternativesMenu* menu = nullptr;
  QTRY_VERIFY((menu = console_->findChild<AlternativesMenu*>()) != nullptr);
  QCOMPARE(menu->position(), index);
  if (!qEnvironmentVariableIsEmpty("MRNN_SCREENSHOT_DIR")) {
    menu->grab().save(qEnvironmentVariable("MRNN_SCREENSHOT_DIR") + "/alternatives.png");
  }
  const auto& symbol = view->symbol(index);
  const auto actions = menu->alternativeActions();
  bool listed = false;
  for (const auto& a : symbol.alternatives) listed = listed || a.id == symbol.id;
  QCOMPARE(actions.size(), static_cast<int>(symbol.alternatives.size()) + (listed ? 0 : 1));
  QCOMPARE(static_cast<int>(symbol.alternatives.size()), 8);  // the form's default
  for (size_t i = 0; i < symbol.alternatives.size(); ++i) {
    const auto& alternative = symbol.alternatives[i];
    QAction* action = actions[static_cast<int>(i)];
    QCOMPARE(action->data().toLongLong(), alternative.id);
    QVERIFY(action->text().endsWith(ProbabilityScale::percent(alternative.probability)));
    QCOMPARE(action->font().bold(), alternative.id == symbol.id);
    QVERIFY(action->isEnabled());
  }
  // Most probable first.
  for (size_t i = 1; i < symbol.alternatives.size(); ++i) {
    QVERIFY(symbol.alternatives[i - 1].probability >= symbol.alternatives[i].probability);
  }
  menu->close();
}

void SamplerConsoleTest::choosingAnAlternativeContinuesFromIt() {
  generateAndWait(2, 40);
  CompletionView* view = console_->completionView(0);
  const auto before = view->completion();
  const auto otherBefore = console_->completionView(1)->completion().text;
  const int position = 7;
  AlternativesMenu* menu = console_->showAlternatives(0, position);
  QVERIFY(menu);
  QAction* choice = nullptr;
  for (QAction* action : menu->alternativeActions()) {
    if (action->data().toLongLong() != before.symbols[position].id) {
      choice = action;
      break;
    }
  }
  QVERIFY(choice);
  const qint64 chosen = choice->data().toLongLong();
  QSignalSpy ended(console_.get(), &SamplerConsole::generationEnded);
  choice->trigger();
  QVERIFY(ended.wait(kWait));
  QVERIFY2(console_->message().isEmpty(), qPrintable(console_->message()));
  QCOMPARE(view->symbolCount(), 40);
  for (int i = 0; i < position; ++i) QCOMPARE(view->symbol(i).id, before.symbols[i].id);
  QCOMPARE(view->symbol(position).id, chosen);
  QCOMPARE(console_->completionView(1)->completion().text, otherBefore);
  // The text shown is the new completion's.
  std::string text;
  for (int i = 0; i < view->symbolCount(); ++i) text += view->symbol(i).text;
  QCOMPARE(text, view->completion().text);
  QCOMPARE(formatAt(view->textEdit(), view->span(position).colourBegin).background().color(),
           ProbabilityScale::background(view->symbol(position).probability));
}

void SamplerConsoleTest::generatingAgainGivesNewText() {
  auto* form = console_->optionsForm();
  QVERIFY(form->seedAdvances());
  generateAndWait(1, 40, 1.0, 5);
  const std::string first = console_->completionView(0)->completion().text;
  QCOMPARE(form->seed(), 6);  // moved on: the next Generate is another draw
  QSignalSpy ended(console_.get(), &SamplerConsole::generationEnded);
  console_->generate();
  QVERIFY(ended.wait(kWait));
  QVERIFY(console_->completionView(0)->completion().text != first);
  // Seed 5 again gives the first text again.
  generateAndWait(1, 40, 1.0, 5);
  QCOMPARE(console_->completionView(0)->completion().text, first);
}

void SamplerConsoleTest::stopButtonEndsGenerationEarly() {
  auto* form = console_->optionsForm();
  form->setCompletions(2);
  form->setLength(1000000);
  QSignalSpy ended(console_.get(), &SamplerConsole::generationEnded);
  console_->generate();
  auto* stop = console_->findChild<QPushButton*>(QStringLiteral("stopButton"));
  QVERIFY(stop->isEnabled());
  QTRY_VERIFY_WITH_TIMEOUT(console_->completionView(0)->symbolCount() > 10, kWait);
  QTest::mouseClick(stop, Qt::LeftButton);
  QVERIFY(ended.wait(kWait));
  QCOMPARE(console_->completionView(0)->completion().stopReason, std::string("stopped"));
  QVERIFY(console_->completionView(0)->symbolCount() < 1000000);
  QCOMPARE(console_->completionView(1)->symbolCount(), 0);
  QVERIFY(console_->status().startsWith(QStringLiteral("Stopped")));
  QVERIFY(!stop->isEnabled());
}

void SamplerConsoleTest::primeOutsideTheVocabularyIsShownInWords() {
  generateAndWait(2, 25);
  const std::string shown = console_->completionView(1)->completion().text;
  const QString document = console_->completionView(1)->textEdit()->toPlainText();
  console_->optionsForm()->setCompletions(3);
  console_->optionsForm()->setPrime(QStringLiteral("zebra"));
  QSignalSpy ended(console_.get(), &SamplerConsole::generationEnded);
  console_->generate();
  QVERIFY(ended.wait(kWait));
  const QString message = console_->message();
  QVERIFY2(message.contains(QStringLiteral("'z'")) &&
               message.contains(QStringLiteral("not in the vocabulary")),
           qPrintable(message));
  auto* generate = console_->findChild<QPushButton*>(QStringLiteral("generateButton"));
  QVERIFY(generate->isEnabled());
  // Nothing was generated: the completions shown before stay, and can still be branched.
  QCOMPARE(console_->completionCount(), 2);
  QCOMPARE(console_->completionView(1)->completion().text, shown);
  QCOMPARE(console_->completionView(1)->textEdit()->toPlainText(), document);
  AlternativesMenu* menu = console_->showAlternatives(1, 3);
  QVERIFY(menu);
  QVERIFY(menu->alternativeActions().front()->isEnabled());
  menu->close();
}

void SamplerConsoleTest::clampRowsFollowTheModelAndReachTheOptions() {
  auto* editor = console_->optionsForm()->clampEditor();
  QCOMPARE(console_->clampNote(), QString());
  editor->addClamp(0, 3, 0.25);
  editor->addClamp(0, 7, -0.5);
  QCOMPARE(editor->rowCount(), 2);
  // Said over Generate, not only in the settings' last group.
  QCOMPARE(console_->clampNote(),
           QStringLiteral("2 units clamped: layer 0 unit 3 = 0.25, layer 0 unit 7 = -0.5"));
  const auto layers = editor->findChildren<QSpinBox*>(QStringLiteral("clampLayer"));
  const auto units = editor->findChildren<QSpinBox*>(QStringLiteral("clampUnit"));
  QCOMPARE(layers.size(), 2);
  QCOMPARE(layers[0]->maximum(), 1);  // one layer
  QCOMPARE(units[0]->maximum(), 15);  // of 16 units
  editor->removeClamp(0);
  QCOMPARE(editor->rowCount(), 1);
  QCOMPARE(console_->clampNote(), QStringLiteral("1 unit clamped: layer 0 unit 7 = -0.5"));
  const auto o = console_->optionsForm()->options();
  QCOMPARE(o.clamps.size(), size_t{1});
  QCOMPARE(o.clamps[0].layer, size_t{0});
  QCOMPARE(o.clamps[0].unit, int64_t{7});
  QCOMPARE(o.clamps[0].value, -0.5);
  // A clamped generation runs.
  generateAndWait(1, 20);
  QCOMPARE(console_->completionView(0)->symbolCount(), 20);
}

void SamplerConsoleTest::ctrlReturnGeneratesAndEscapeStops() {
  console_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(console_.get()));
  auto* form = console_->optionsForm();
  form->setCompletions(1);
  form->setLength(1000000);
  form->primeEdit()->setFocus();
  QSignalSpy ended(console_.get(), &SamplerConsole::generationEnded);
  QTest::keyClick(form->primeEdit(), Qt::Key_Return, Qt::ControlModifier);
  QVERIFY(console_->controller()->isBusy());
  QTRY_VERIFY_WITH_TIMEOUT(console_->completionView(0)->symbolCount() > 5, kWait);
  QTest::keyClick(form->primeEdit(), Qt::Key_Escape);
  QVERIFY(ended.wait(kWait));
  QCOMPARE(console_->completionView(0)->completion().stopReason, std::string("stopped"));
}

void SamplerConsoleTest::refreshListsANewRunsCheckpoint() {
  // A second run that saved a latest checkpoint, as a run in progress would.
  const QString folder = project_->folder();
  mrnn::engine::RunStore store((folder + QStringLiteral("/runs.sqlite")).toStdString());
  mrnn::engine::RunRecord record;
  record.name = "sampler test";
  record.modelType = "mlstm";
  const int64_t run = store.createRun(record);
  QVERIFY(QDir(folder).mkpath(QStringLiteral("checkpoints/run-%1").arg(run)));
  const QString relative = QStringLiteral("checkpoints/run-%1/latest.pt").arg(run);
  QVERIFY(QFile::copy(project_->latestCheckpoint(), folder + QLatin1Char('/') + relative));
  store.recordCheckpoint(run, {"latest", relative.toStdString(), 7, std::nullopt, ""});

  auto* combo = console_->findChild<QComboBox*>(QStringLiteral("checkpointCombo"));
  console_->refreshCheckpoints();
  QCOMPARE(combo->count(), 3);
  QVERIFY(combo->itemText(0).startsWith(
      QStringLiteral("Run %1 · sampler test · latest · step 7").arg(run)));
  // The selection stays on what was chosen.
  QVERIFY2(combo->currentText().startsWith(QStringLiteral("Run 1 · mlstm ")) &&
               combo->currentText().contains(QStringLiteral(" params · best")),
           qPrintable(combo->currentText()));
  // Choosing the new one loads it.
  QSignalSpy loaded(console_->controller(), &mrnn::widgets::SamplingController::modelLoaded);
  combo->setCurrentIndex(0);
  Q_EMIT combo->activated(0);
  QVERIFY(loaded.wait(kWait));
  // The file is a copy of run 1's: the run it names is the one that wrote it.
  QVERIFY(console_->controller()->modelInfo().checkpoint.endsWith(relative));
  QCOMPARE(console_->controller()->modelInfo().runId, qint64{1});

  store.deleteRun(run);
  QDir(folder + QStringLiteral("/checkpoints/run-%1").arg(run)).removeRecursively();
}

void SamplerConsoleTest::openingAProjectWithoutRunsLetsTheModelGo() {
  QTemporaryDir other;
  QVERIFY(QFile::copy(project_->projectFile(), other.filePath(QStringLiteral("project.yaml"))));
  QVERIFY(
      QFile::copy(QFileInfo(project_->projectFile()).dir().filePath(QStringLiteral("corpus.txt")),
                  other.filePath(QStringLiteral("corpus.txt"))));
  document_->load(other.filePath(QStringLiteral("project.yaml")));
  auto* combo = console_->findChild<QComboBox*>(QStringLiteral("checkpointCombo"));
  QCOMPARE(combo->count(), 0);
  QVERIFY(!console_->controller()->hasModel());
  // The status no longer names the last project's model ("Loaded run 1: best.pt" once stood
  // beside "no model loaded").
  QVERIFY2(!console_->status().contains(QStringLiteral("Loaded")), qPrintable(console_->status()));
  console_->generate();
  QVERIFY2(console_->message().startsWith(QStringLiteral("No checkpoint yet")),
           qPrintable(console_->message()));
  // And back: the first project's model loads again.
  document_->load(project_->projectFile());
  QCOMPARE(combo->count(), 2);
  QTRY_VERIFY_WITH_TIMEOUT(console_->controller()->hasModel(), kWait);
}

void SamplerConsoleTest::wordModelsJoinWordsWithPlainSpaces() {
  mrnn::test::TrainedProject words(mrnn::test::tinyProjectYaml(20, "word"),
                                   mrnn::test::lexiconText(20000));
  QVERIFY2(words.ok(), qPrintable(words.error()));
  ProjectDocument document;
  document.load(words.projectFile());
  SamplerConsole console(document);
  QTRY_VERIFY_WITH_TIMEOUT(console.controller()->hasModel(), kWait);
  QCOMPARE(console.controller()->modelInfo().level, QStringLiteral("word"));
  auto* form = console.optionsForm();
  form->setPrime(QStringLiteral("the cat"));
  form->setCompletions(1);
  form->setLength(30);
  QSignalSpy ended(&console, &SamplerConsole::generationEnded);
  console.generate();
  QVERIFY(ended.wait(kWait));
  QVERIFY2(console.message().isEmpty(), qPrintable(console.message()));
  const CompletionView* view = console.completionView(0);
  QCOMPARE(view->symbolCount(), 30);
  // What is shown: the prime, then the completion with each generated line break marked.
  QString expected = QString::fromStdString(view->completion().text);
  expected.replace(QStringLiteral("\n"), QStringLiteral("↵\n"));
  QCOMPARE(view->textEdit()->toPlainText(), QStringLiteral("the cat") + expected);
  int wordsChecked = 0;
  for (int i = 0; i < view->symbolCount(); ++i) {
    const std::string& text = view->symbol(i).text;
    if (text.size() < 2 || text[0] != ' ') continue;
    const auto span = view->span(i);
    QCOMPARE(span.colourBegin, span.begin + 1);
    QCOMPARE(formatAt(view->textEdit(), span.begin).background().style(), Qt::NoBrush);
    QCOMPARE(formatAt(view->textEdit(), span.colourBegin).background().color(),
             ProbabilityScale::background(view->symbol(i).probability));
    QCOMPARE(span.colourEnd - span.colourBegin, static_cast<int>(text.size()) - 1);
    ++wordsChecked;
  }
  QVERIFY(wordsChecked > 10);
}

void SamplerConsoleTest::viewShowsLineBreaksAndSplitCharacters() {
  CompletionView view(0);
  view.start(QStringLiteral("ab"));
  auto symbol = [](int64_t id, const std::string& text, double p) {
    mrnn::engine::GeneratedSymbol s;
    s.id = id;
    s.text = text;
    s.probability = p;
    return s;
  };
  view.appendSymbol(symbol(1, "c", 0.9));
  view.appendSymbol(symbol(2, "\n", 0.5));
  // "é" as two byte-level symbols: shown once, with the symbol that completes it.
  view.appendSymbol(symbol(3, "\xC3", 0.2));
  view.appendSymbol(symbol(4, "\xA9", 0.7));
  QCOMPARE(view.textEdit()->toPlainText(), QStringLiteral("abc↵\né"));
  QCOMPARE(view.symbolCount(), 4);
  QCOMPARE(view.completion().text, std::string("c\n\xC3\xA9"));
  QCOMPARE(view.span(1).colourEnd - view.span(1).colourBegin, 1);  // the ↵ mark
  QCOMPARE(view.span(2).colourEnd, view.span(2).colourBegin);      // nothing shown yet
  QCOMPARE(view.span(3).colourEnd - view.span(3).colourBegin, 1);
  QCOMPARE(formatAt(view.textEdit(), view.span(1).colourBegin).background().color(),
           ProbabilityScale::background(0.5));
  QCOMPARE(formatAt(view.textEdit(), view.span(3).colourBegin).background().color(),
           ProbabilityScale::background(0.7));
  // Truncating redraws from the kept symbols.
  view.truncate(2);
  QCOMPARE(view.textEdit()->toPlainText(), QStringLiteral("abc↵\n"));
  QCOMPARE(view.completion().text, std::string("c\n"));
  QCOMPARE(view.statistics().left(9), QStringLiteral("2 symbols"));
}

void SamplerConsoleTest::primeStaysInViewUntilTheReaderScrollsDown() {
  CompletionView view(0);
  view.resize(320, 160);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  view.start(QStringLiteral("The prime"));
  mrnn::engine::GeneratedSymbol word;
  word.id = 1;
  word.text = "word ";
  word.probability = 0.5;
  for (int i = 0; i < 400; ++i) view.appendSymbol(word);
  QScrollBar* bar = view.textEdit()->verticalScrollBar();
  QVERIFY(bar->maximum() > 0);  // the text overflows the view
  // The completion does not scroll itself away from its prime.
  QCOMPARE(bar->value(), 0);
  // A reader who scrolls to the end follows the stream from there.
  bar->setValue(bar->maximum());
  for (int i = 0; i < 200; ++i) view.appendSymbol(word);
  QCOMPARE(bar->value(), bar->maximum());
}

QTEST_MAIN(SamplerConsoleTest)
#include "test_sampler_console.moc"
