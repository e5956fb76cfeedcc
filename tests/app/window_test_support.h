#pragma once

// What the main window's test suites share: a project file written, File > Save answered, an
// edit then a signal to quit.

#include <csignal>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QKeySequence>
#include <QMessageBox>
#include <QTest>
#include <QTimer>

#include "app/gui/main_window.h"
#include "app/gui/quit_signals.h"
#include "widgets/project/project_document.h"

namespace mrnn::test {

// File > Save (Ctrl+S) in `window`, answering the question box named `box` with the button
// whose text holds `answer`; what the box asked ("" when none came).
inline QString saveAnswering(QWidget& window, const QString& box, const QString& answer) {
  QAction* save = nullptr;
  for (QAction* action : window.findChildren<QAction*>())
    if (action->shortcut() == QKeySequence(QKeySequence::Save)) save = action;
  if (save == nullptr) return QStringLiteral("(no Save action)");
  QString asked;
  QTimer::singleShot(0, &window, [&] {
    auto* question = window.findChild<QMessageBox*>(box);
    if (!question) return;
    asked = question->text();
    for (QAbstractButton* button : question->buttons())
      if (button->text().contains(answer)) button->click();
  });
  save->trigger();
  return asked;
}

// Writes `bytes` to a new file at `path` (a test's project or corpus).
inline void writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(bytes);
}

// Sends the process SIGTERM, as a logout does, and waits for `window` to close.
inline void quitOnSignal(mrnn::app::MainWindow& window) {
  mrnn::app::QuitSignals quitSignals;
  QObject::connect(&quitSignals, &mrnn::app::QuitSignals::requested, &window,
                   &mrnn::app::MainWindow::quitOnSignal);
  QVERIFY(::raise(SIGTERM) == 0);
  QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 10000);
}

// Sets the first layer's hidden size in `window` (unsaved), then quits it as a logout's
// SIGTERM does.
inline void editThenQuitOnSignal(mrnn::app::MainWindow& window, int64_t hidden) {
  mrnn::engine::ModelConfig model = window.document().project().model;
  model.layers.at(0).hiddenSize = hidden;
  window.document().editModel(model, QStringLiteral("Set hidden size"));
  quitOnSignal(window);
}

// Answers the next modal question box with the button whose text holds `button`; what it
// asked (its text and informative text) goes to `asked`.
inline void answerNextBox(QWidget& window, const QString& button, QString* asked) {
  QTimer::singleShot(0, &window, [button, asked] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return;
    if (asked) *asked = box->text() + QLatin1Char(' ') + box->informativeText();
    for (QAbstractButton* candidate : box->buttons())
      if (candidate->text().contains(button)) candidate->click();
  });
}

// Clicks the button whose text is `text` in `box`.
inline void click(QMessageBox* box, const QString& text) {
  for (QAbstractButton* button : box->buttons())
    if (button->text() == text) button->click();
}

}  // namespace mrnn::test
