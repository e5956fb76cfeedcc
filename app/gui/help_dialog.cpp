#include "app/gui/help_dialog.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QListWidget>
#include <QMap>
#include <QShortcut>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace mrnn::app {
namespace {

// The pages in the order a newcomer reads them; files that are missing are left out.
const char* const kPages[][2] = {
    {"The workbench", "workbench.md"},
    {"Training and runs", "training.md"},
    {"Analyses", "analysis.md"},
    {"Model YAML", "model-config.md"},
    {"The cells and their equations", "cells.md"},
    {"Performance", "performance.md"},
    {"Performance history", "performance-history.md"},
    {"Architecture (for developers)", "architecture.md"},
};

QString plainText(QString text) {
  return text.remove(QLatin1Char('&'));
}

}  // namespace

QString HelpDialog::standardDocsFolder() {
  const QString source = QStringLiteral(MRNN_SOURCE_DOCS_DIR);
  if (QFileInfo::exists(source + QStringLiteral("/workbench.md"))) return source;
  return QDir::cleanPath(
      QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/mrnn/docs")));
}

HelpDialog::HelpDialog(const QString& docsFolder, QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("helpDialog"));
  setWindowTitle(tr("mRNN Workbench help"));
  for (const auto& page : kPages) {
    const QString file = QDir(docsFolder).filePath(QString::fromLatin1(page[1]));
    if (!docsFolder.isEmpty() && QFileInfo::exists(file)) {
      pages_.append({tr(page[0]), file});
    }
  }
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("helpPages"));
  for (const auto& page : pages_) list_->addItem(page.first);
  list_->addItem(tr("Keyboard shortcuts"));
  text_ = new QTextBrowser(this);
  text_->setObjectName(QStringLiteral("helpText"));
  text_->setOpenExternalLinks(true);
  auto* splitter = new QSplitter(this);
  splitter->addWidget(list_);
  splitter->addWidget(text_);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({200, 700});
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(splitter, 1);
  layout->addWidget(buttons);
  connect(list_, &QListWidget::currentRowChanged, this, &HelpDialog::showPage);
  resize(960, 640);
  list_->setCurrentRow(0);
  if (pages_.isEmpty()) {
    text_->setPlainText(tr("The documentation was not found (looked in %1). It is in the "
                           "docs/ folder of the mRNN Workbench sources.")
                            .arg(QDir::toNativeSeparators(docsFolder)));
  }
}

int HelpDialog::pageCount() const {
  return list_->count();
}

QString HelpDialog::currentText() const {
  return text_->toPlainText();
}

void HelpDialog::showPage(int index) {
  if (index < 0 || index >= pageCount()) return;
  if (list_->currentRow() != index) list_->setCurrentRow(index);  // comes back here
  if (index == pageCount() - 1) {
    text_->setHtml(shortcutsHtml_);
    return;
  }
  QFile file(pages_[index].second);
  if (!file.open(QIODevice::ReadOnly)) {
    text_->setPlainText(
        tr("%1 cannot be read: %2")
            .arg(QDir::toNativeSeparators(pages_[index].second), file.errorString()));
    return;
  }
  // Relative links and images (screenshots/) resolve against the page's folder.
  text_->setSearchPaths({QFileInfo(pages_[index].second).absolutePath()});
  text_->setMarkdown(QString::fromUtf8(file.readAll()));
}

QString HelpDialog::panelTitle(const QWidget* window, const QObject* owner) {
  for (const QObject* at = owner; at != nullptr && at != window; at = at->parent()) {
    if (const auto* dock = qobject_cast<const QDockWidget*>(at)) return dock->windowTitle();
    const auto* widget = qobject_cast<const QWidget*>(at);
    if (widget && widget->parentWidget() == window && !widget->windowTitle().isEmpty()) {
      return widget->windowTitle();  // the central widget: the composer
    }
  }
  return QString();
}

QList<QPair<QString, QString>> HelpDialog::shortcutsOf(const QWidget* window) {
  QMap<QString, QString> byWhat;
  for (const QAction* action : window->findChildren<QAction*>()) {
    if (action->shortcut().isEmpty() || action->text().isEmpty()) continue;
    // A panel's own action says whose it is: the composer's Delete is not the runs' Delete.
    const QString panel = panelTitle(window, action->parent());
    const QString what = plainText(action->text());
    byWhat.insert(panel.isEmpty() ? what : panel + QStringLiteral(": ") + what,
                  action->shortcut().toString(QKeySequence::NativeText));
  }
  for (const QShortcut* shortcut : window->findChildren<QShortcut*>()) {
    // A key without a description is a second key for a described one (keypad Enter).
    if (shortcut->key().isEmpty() || shortcut->whatsThis().isEmpty()) continue;
    byWhat.insert(shortcut->whatsThis(), shortcut->key().toString(QKeySequence::NativeText));
  }
  QList<QPair<QString, QString>> out;
  for (auto it = byWhat.cbegin(); it != byWhat.cend(); ++it) out.append({it.value(), it.key()});
  return out;
}

void HelpDialog::setShortcuts(const QList<QPair<QString, QString>>& shortcuts) {
  QString html =
      tr("<h2>Keyboard shortcuts</h2><p>F5 starts training (or resumes a paused "
         "run) from anywhere in the window; a panel's own keys work while it has "
         "the focus.</p><table cellpadding='4'>");
  for (const auto& [keys, what] : shortcuts) {
    html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
  }
  shortcutsHtml_ = html + QStringLiteral("</table>");
  if (list_->currentRow() == pageCount() - 1) text_->setHtml(shortcutsHtml_);
}

}  // namespace mrnn::app
