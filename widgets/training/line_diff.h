#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace mrnn::widgets {

// One line of a line-by-line comparison of two texts.
struct DiffLine {
  enum class Kind { Same, Removed, Added };
  Kind kind = Kind::Same;
  QString text;
  int leftLine = 0;   // 1-based line in the left text; 0 for an added line
  int rightLine = 0;  // 1-based line in the right text; 0 for a removed line
};

// The shortest edit from `left` to `right` (a longest common subsequence of lines): unchanged
// lines once, then for each change the removed lines followed by the added ones. Configs
// are a few hundred lines, so the quadratic table is small.
QVector<DiffLine> diffLines(const QStringList& left, const QStringList& right);

}  // namespace mrnn::widgets
