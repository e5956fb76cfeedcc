#pragma once

#include <QDialog>
#include <QList>
#include <QPair>
#include <QString>

class QListWidget;
class QTextBrowser;

namespace mrnn::app {

// Help > Documentation and Help > Keyboard Shortcuts: the project's docs/*.md read in the
// window (no browser needed, so it works offline and on any desktop), and every key the
// window answers to, gathered from its actions and shortcuts so the list cannot go stale.
class HelpDialog : public QDialog {
  Q_OBJECT

 public:
  // `docsFolder`: where the documentation's Markdown files are (may be empty: a note says
  // where to find them instead).
  HelpDialog(const QString& docsFolder, QWidget* parent = nullptr);

  // The documentation pages found, in reading order: (title, file).
  QList<QPair<QString, QString>> pages() const { return pages_; }
  // Shows page `index`; the shortcuts page is the last.
  void showPage(int index);
  int pageCount() const;
  QString currentText() const;

  // The window's keys: (keys, what they do), from its enabled and disabled actions and its
  // QShortcuts, each once, sorted by what they do.
  static QList<QPair<QString, QString>> shortcutsOf(const QWidget* window);
  // The panel `owner` belongs to: its dock's title, or the central widget's; empty for the
  // window's own actions.
  static QString panelTitle(const QWidget* window, const QObject* owner);
  // Fills the shortcuts page (called by the main window with itself).
  void setShortcuts(const QList<QPair<QString, QString>>& shortcuts);

  // docs/ of the source tree for a build-tree binary, else <prefix>/share/mrnn/docs.
  static QString standardDocsFolder();

 private:
  QList<QPair<QString, QString>> pages_;
  QString shortcutsHtml_;
  QListWidget* list_ = nullptr;
  QTextBrowser* text_ = nullptr;
};

}  // namespace mrnn::app
