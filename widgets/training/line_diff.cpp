#include "widgets/training/line_diff.h"

#include <algorithm>
#include <vector>

namespace mrnn::widgets {

QVector<DiffLine> diffLines(const QStringList& left, const QStringList& right) {
  const int n = left.size();
  const int m = right.size();
  // common[i][j]: length of the longest common subsequence of left[i..] and right[j..].
  std::vector<std::vector<int>> common(static_cast<size_t>(n) + 1,
                                       std::vector<int>(static_cast<size_t>(m) + 1, 0));
  for (int i = n - 1; i >= 0; --i) {
    for (int j = m - 1; j >= 0; --j) {
      const auto a = static_cast<size_t>(i);
      const auto b = static_cast<size_t>(j);
      common[a][b] = left[i] == right[j] ? common[a + 1][b + 1] + 1
                                         : std::max(common[a + 1][b], common[a][b + 1]);
    }
  }
  QVector<DiffLine> out;
  QVector<DiffLine> removed;
  QVector<DiffLine> added;
  const auto flush = [&] {
    out += removed;
    out += added;
    removed.clear();
    added.clear();
  };
  int i = 0;
  int j = 0;
  while (i < n || j < m) {
    const auto a = static_cast<size_t>(i);
    const auto b = static_cast<size_t>(j);
    if (i < n && j < m && left[i] == right[j]) {
      flush();
      out.append({DiffLine::Kind::Same, left[i], i + 1, j + 1});
      ++i;
      ++j;
    } else if (j >= m || (i < n && common[a + 1][b] >= common[a][b + 1])) {
      removed.append({DiffLine::Kind::Removed, left[i], i + 1, 0});
      ++i;
    } else {
      added.append({DiffLine::Kind::Added, right[j], 0, j + 1});
      ++j;
    }
  }
  flush();
  return out;
}

}  // namespace mrnn::widgets
