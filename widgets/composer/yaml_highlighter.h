#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace mrnn::widgets {

// Light YAML colouring for the project text: keys, comments, numbers, booleans and quoted
// strings. Line-based, which is all a project file needs.
class YamlHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit YamlHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  QRegularExpression key_;
  QRegularExpression number_;
  QRegularExpression keyword_;
  QRegularExpression quoted_;
  QTextCharFormat keyFormat_;
  QTextCharFormat numberFormat_;
  QTextCharFormat keywordFormat_;
  QTextCharFormat stringFormat_;
  QTextCharFormat commentFormat_;
  QTextCharFormat punctuationFormat_;
};

}  // namespace mrnn::widgets
