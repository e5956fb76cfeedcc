#include "widgets/composer/yaml_highlighter.h"

namespace mrnn::widgets {

YamlHighlighter::YamlHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document),
      key_(QStringLiteral("^(\\s*(?:-\\s+)?)([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*:")),
      number_(QStringLiteral(":\\s*(-?[0-9][0-9_]*(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)\\s*$")),
      keyword_(QStringLiteral(":\\s*(true|false|null|~)\\s*$")),
      quoted_(QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^']|'')*'")) {
  keyFormat_.setForeground(QColor(0x1c, 0x4f, 0x9c));
  numberFormat_.setForeground(QColor(0x0b, 0x7a, 0x4b));
  keywordFormat_.setForeground(QColor(0xa6, 0x1e, 0x4d));
  stringFormat_.setForeground(QColor(0x9c, 0x5d, 0x00));
  commentFormat_.setForeground(QColor(0x86, 0x8e, 0x96));
  commentFormat_.setFontItalic(true);
  punctuationFormat_.setForeground(QColor(0x86, 0x8e, 0x96));
}

void YamlHighlighter::highlightBlock(const QString& text) {
  // A comment starts at '#' at the line start or after a space (not inside a value like a#b).
  qsizetype comment = -1;
  for (qsizetype i = 0; i < text.size(); ++i) {
    if (text[i] == QLatin1Char('#') && (i == 0 || text[i - 1].isSpace())) {
      comment = i;
      break;
    }
  }
  const QString code = comment >= 0 ? text.left(comment) : text;

  const QRegularExpressionMatch key = key_.match(code);
  if (key.hasMatch()) {
    const qsizetype dash = code.indexOf(QLatin1Char('-'));
    if (dash >= 0 && dash < key.capturedStart(2))
      setFormat(static_cast<int>(dash), 1, punctuationFormat_);
    setFormat(static_cast<int>(key.capturedStart(2)), static_cast<int>(key.capturedLength(2)),
              keyFormat_);
  } else if (code.trimmed().startsWith(QLatin1Char('-'))) {
    setFormat(static_cast<int>(code.indexOf(QLatin1Char('-'))), 1, punctuationFormat_);
  }
  const QRegularExpressionMatch number = number_.match(code);
  if (number.hasMatch()) {
    setFormat(static_cast<int>(number.capturedStart(1)), static_cast<int>(number.capturedLength(1)),
              numberFormat_);
  }
  const QRegularExpressionMatch keyword = keyword_.match(code);
  if (keyword.hasMatch()) {
    setFormat(static_cast<int>(keyword.capturedStart(1)),
              static_cast<int>(keyword.capturedLength(1)), keywordFormat_);
  }
  auto quoted = quoted_.globalMatch(code);
  while (quoted.hasNext()) {
    const QRegularExpressionMatch match = quoted.next();
    setFormat(static_cast<int>(match.capturedStart()), static_cast<int>(match.capturedLength()),
              stringFormat_);
  }
  if (comment >= 0) {
    setFormat(static_cast<int>(comment), static_cast<int>(text.size() - comment), commentFormat_);
  }
}

}  // namespace mrnn::widgets
