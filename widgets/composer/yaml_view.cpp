#include "widgets/composer/yaml_view.h"

#include <QEvent>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "engine/config/config_error.h"
#include "engine/config/project_file.h"
#include "widgets/composer/yaml_highlighter.h"
#include "widgets/monospace_font.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {
namespace {

constexpr int kMergeBase = 0x594d0000;  // "YM": merge keys of YAML editing sessions

QString documentText(const ProjectDocument& document) {
  return QString::fromStdString(document.text());
}

}  // namespace

YamlView::YamlView(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("yamlView"));
  editor_ = new QPlainTextEdit(this);
  editor_->setObjectName(QStringLiteral("yamlEditor"));
  QFont mono = monospaceFont();
  editor_->setFont(mono);
  editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
  editor_->setTabChangesFocus(false);
  editor_->setTabStopDistance(QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')) * 2);
  editor_->setToolTip(
      tr("The project as YAML. Edits apply after a short pause or when you "
         "leave the editor; invalid text is marked and not applied."));
  editor_->installEventFilter(this);
  new YamlHighlighter(editor_->document());

  errorBar_ = new QFrame(this);
  errorBar_->setObjectName(QStringLiteral("yamlErrorBar"));
  errorBar_->setStyleSheet(
      QStringLiteral("#yamlErrorBar { background: #fff5f5; border-top: 1px solid #ffc9c9; }"));
  errorLabel_ = new QLabel(errorBar_);
  errorLabel_->setObjectName(QStringLiteral("yamlError"));
  errorLabel_->setWordWrap(true);
  errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  errorLabel_->setStyleSheet(QStringLiteral("color: #c92a2a;"));
  auto* revertButton = new QPushButton(tr("Revert"), errorBar_);
  revertButton->setObjectName(QStringLiteral("yamlRevert"));
  revertButton->setToolTip(tr("Discard this text and show the model as it is"));
  auto* barLayout = new QHBoxLayout(errorBar_);
  barLayout->setContentsMargins(10, 6, 8, 6);
  barLayout->addWidget(errorLabel_, 1);
  barLayout->addWidget(revertButton, 0, Qt::AlignTop);
  errorBar_->hide();

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(editor_, 1);
  layout->addWidget(errorBar_);

  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(kDebounceMs);
  connect(debounce_, &QTimer::timeout, this, [this] { applyNow(); });
  connect(editor_, &QPlainTextEdit::textChanged, this, &YamlView::userEdited);
  connect(revertButton, &QPushButton::clicked, this, &YamlView::revert);
  connect(&document_, &ProjectDocument::projectChanged, this, &YamlView::documentChanged);

  setText(documentText(document_));
  editor_->document()->clearUndoRedoStacks();
}

bool YamlView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == editor_) {
    if (event->type() == QEvent::FocusIn) {
      ++session_;
    } else if (event->type() == QEvent::FocusOut) {
      debounce_->stop();
      // Leaving the editor ends the edit: apply the draft, then show the document's text.
      if (!draft_ || applyNow()) {
        const QString text = documentText(document_);
        if (editor_->toPlainText() != text) setText(text);
      }
    }
  }
  return QWidget::eventFilter(watched, event);
}

void YamlView::documentChanged() {
  if (applying_) return;
  // An unapplied draft being typed wins until the user leaves the editor.
  if (draft_ && editor_->hasFocus()) return;
  debounce_->stop();
  draft_ = false;
  clearError();
  const QString text = documentText(document_);
  if (editor_->toPlainText() != text) setText(text);
}

void YamlView::userEdited() {
  if (settingText_) return;
  draft_ = true;
  debounce_->start();
}

bool YamlView::applyNow() {
  debounce_->stop();
  const std::string text = editor_->toPlainText().toStdString();
  engine::Project parsed;
  try {
    // Settings that only clash with each other (tied embeddings of the wrong width) are taken,
    // as from the composer's controls: the composer then names the problem and Start waits.
    parsed = engine::parseProject(text, "", /*checkModelCombinations=*/false);
  } catch (const engine::ConfigError& error) {
    QString located;
    if (error.line() > 0) {
      located = QString::number(error.line());
      if (error.column() > 0) located += QLatin1Char(':') + QString::number(error.column());
      located += QStringLiteral(": ");
    }
    if (!error.key().empty()) located += QString::fromStdString(error.key()) + QStringLiteral(": ");
    located += QString::fromStdString(error.message());
    showError(error.line(), located);
    return false;
  } catch (const std::exception& error) {
    showError(0, QString::fromUtf8(error.what()));
    return false;
  }
  clearError();
  draft_ = false;
  parsed.folder = document_.project().folder;  // not part of the text
  parsed.runName = document_.project().runName;
  applying_ = true;
  document_.editText(text, parsed, tr("Edit YAML"), kMergeBase + (session_ & 0xffff));
  applying_ = false;
  return true;
}

QString YamlView::unappliedDraft() {
  if (!draft_ || applyNow()) return QString();
  return errorText_;
}

QString YamlView::failedDraft() const {
  return draft_ && hasError() ? editor_->toPlainText() : QString();
}

void YamlView::restoreDraft(const QString& text) {
  editor_->setPlainText(text);  // as typed: a draft, read now
  applyNow();
}

void YamlView::revert() {
  debounce_->stop();
  draft_ = false;
  clearError();
  setText(documentText(document_));
}

void YamlView::setText(const QString& text) {
  const QTextCursor cursor = editor_->textCursor();
  const int line = cursor.blockNumber();
  const int column = cursor.positionInBlock();
  const int scroll = editor_->verticalScrollBar()->value();
  settingText_ = true;
  editor_->setPlainText(text);
  settingText_ = false;
  QTextDocument* document = editor_->document();
  const QTextBlock block = document->findBlockByNumber(std::min(line, document->blockCount() - 1));
  QTextCursor restored(block);
  restored.setPosition(block.position() + std::min(column, std::max(0, block.length() - 1)));
  editor_->setTextCursor(restored);
  editor_->verticalScrollBar()->setValue(scroll);
}

void YamlView::showError(int line, const QString& message) {
  errorText_ = message;
  errorLine_ = line;
  errorLabel_->setText(tr("<b>Not applied.</b> %1").arg(message.toHtmlEscaped()));
  errorBar_->show();
  QList<QTextEdit::ExtraSelection> selections;
  if (line > 0 && line <= editor_->document()->blockCount()) {
    QTextEdit::ExtraSelection selection;
    selection.format.setBackground(QColor(0xff, 0xe3, 0xe3));
    selection.format.setProperty(QTextFormat::FullWidthSelection, true);
    selection.cursor = QTextCursor(editor_->document()->findBlockByNumber(line - 1));
    selections << selection;
  }
  editor_->setExtraSelections(selections);
  emit draftChanged();
}

void YamlView::clearError() {
  const bool had = !errorText_.isEmpty();
  errorText_.clear();
  errorLine_ = 0;
  errorBar_->hide();
  editor_->setExtraSelections({});
  if (had) emit draftChanged();
}

}  // namespace mrnn::widgets
