#include "widgets/training/config_diff_dialog.h"
#include "widgets/monospace_font.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextEdit>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace mrnn::widgets {
namespace {

constexpr int kContextLines = 3;

QStringList splitLines(const QString& text) {
  QStringList lines = text.split(QLatin1Char('\n'));
  if (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();  // the final newline
  return lines;
}

QString lineNumber(int line) {
  return line > 0 ? QStringLiteral("%1").arg(line, 4) : QStringLiteral("    ");
}

}  // namespace

ConfigDiffDialog::ConfigDiffDialog(const QString& leftTitle, const QString& leftText,
                                   const QString& rightTitle, const QString& rightText,
                                   QWidget* parent)
    : QDialog(parent), lines_(diffLines(splitLines(leftText), splitLines(rightText))) {
  setObjectName(QStringLiteral("configDiffDialog"));
  setWindowTitle(tr("Config differences: %1 and %2").arg(leftTitle, rightTitle));
  for (const DiffLine& line : lines_) {
    if (line.kind == DiffLine::Kind::Removed) ++removed_;
    if (line.kind == DiffLine::Kind::Added) ++added_;
  }

  auto* legend =
      new QLabel(tr("<span style='background:#fde2e1'>&nbsp;- %1&nbsp;</span>&nbsp;&nbsp;"
                    "<span style='background:#dcf5dc'>&nbsp;+ %2&nbsp;</span>")
                     .arg(leftTitle.toHtmlEscaped(), rightTitle.toHtmlEscaped()),
                 this);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("diffSummary"));
  if (removed_ == 0 && added_ == 0) {
    summary_->setText(tr("The two configs are identical."));
  } else {
    summary_->setText(tr("%n line(s) removed", "", removed_) + QStringLiteral(", ") +
                      tr("%n line(s) added", "", added_));
  }
  changesOnlyCheck_ = new QCheckBox(tr("Changes &only"), this);
  changesOnlyCheck_->setObjectName(QStringLiteral("changesOnlyCheck"));
  changesOnlyCheck_->setToolTip(
      tr("Show only changed lines and %1 lines around each").arg(kContextLines));
  connect(changesOnlyCheck_, &QCheckBox::toggled, this, &ConfigDiffDialog::setChangesOnly);

  view_ = new QPlainTextEdit(this);
  view_->setObjectName(QStringLiteral("diffView"));
  view_->setReadOnly(true);
  view_->setLineWrapMode(QPlainTextEdit::NoWrap);
  view_->setFont(monospaceFont());

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* header = new QHBoxLayout;
  header->addWidget(legend);
  header->addStretch(1);
  header->addWidget(summary_);
  header->addSpacing(12);
  header->addWidget(changesOnlyCheck_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(header);
  layout->addWidget(view_, 1);
  layout->addWidget(buttons);
  resize(760, 560);
  render();
}

void ConfigDiffDialog::setChangesOnly(bool on) {
  changesOnly_ = on;
  if (changesOnlyCheck_->isChecked() != on) changesOnlyCheck_->setChecked(on);
  render();
}

void ConfigDiffDialog::render() {
  // Which lines to show: all, or changes with their context.
  QVector<bool> shown(lines_.size(), !changesOnly_);
  if (changesOnly_) {
    for (int i = 0; i < lines_.size(); ++i) {
      if (lines_[i].kind == DiffLine::Kind::Same) continue;
      for (int k = std::max(0, i - kContextLines);
           k <= std::min(static_cast<int>(lines_.size()) - 1, i + kContextLines); ++k) {
        shown[k] = true;
      }
    }
  }
  QStringList text;
  QVector<DiffLine::Kind> kinds;
  bool skipped = false;
  for (int i = 0; i < lines_.size(); ++i) {
    if (!shown[i]) {
      skipped = true;
      continue;
    }
    if (skipped) {
      text << QStringLiteral("          ...");
      kinds << DiffLine::Kind::Same;
      skipped = false;
    }
    const DiffLine& line = lines_[i];
    const QChar mark = line.kind == DiffLine::Kind::Removed ? QLatin1Char('-')
                       : line.kind == DiffLine::Kind::Added ? QLatin1Char('+')
                                                            : QLatin1Char(' ');
    text << QStringLiteral("%1 %2 %3 %4")
                .arg(lineNumber(line.leftLine), lineNumber(line.rightLine), QString(mark),
                     line.text);
    kinds << line.kind;
  }
  view_->setPlainText(text.join(QLatin1Char('\n')));

  // Whole-width backgrounds for changed lines.
  QList<QTextEdit::ExtraSelection> selections;
  QTextBlock block = view_->document()->firstBlock();
  for (int i = 0; i < kinds.size() && block.isValid(); ++i, block = block.next()) {
    if (kinds[i] == DiffLine::Kind::Same) continue;
    QTextEdit::ExtraSelection selection;
    selection.format.setBackground(kinds[i] == DiffLine::Kind::Removed ? QColor(0xfd, 0xe2, 0xe1)
                                                                       : QColor(0xdc, 0xf5, 0xdc));
    selection.format.setProperty(QTextFormat::FullWidthSelection, true);
    selection.cursor = QTextCursor(block);
    selection.cursor.clearSelection();
    selections << selection;
  }
  view_->setExtraSelections(selections);
  // Open on the first change: in a long config it may be far below the fold.
  if (!selections.isEmpty()) {
    view_->setTextCursor(selections.first().cursor);
    // Centred once laid out, so the lines before the change show too.
    QTimer::singleShot(0, view_, [view = view_] { view->centerCursor(); });
  }
}

}  // namespace mrnn::widgets
