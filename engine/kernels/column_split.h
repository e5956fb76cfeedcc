#pragma once

#include <cstddef>
#include <cstdint>

namespace mrnn::engine {

// Independent products split over threads by their output columns: thread `part` of `parts`
// takes the columns between its two cuts in the products' joined column range, cut where each
// thread gets an equal share of the work and rounded to whole blocks of `align` columns. The
// cuts of all parts tile every column of every product exactly once.
struct ColumnRange {
  double workPerColumn = 0.0;  // multiply-adds
  int64_t columns = 0;
};
struct ColumnCut {
  std::size_t range = 0;  // which product; `count` for the end
  int64_t column = 0;
};
ColumnCut columnCut(const ColumnRange* ranges, std::size_t count, int part, int parts,
                    int64_t align);

// Calls run(range, from, to) for each non-empty piece between part's two cuts, in order.
template <class Run>
void forEachPiece(const ColumnRange* ranges, std::size_t count, int part, int parts, int64_t align,
                  Run&& run) {
  const auto from = columnCut(ranges, count, part, parts, align);
  const auto to = columnCut(ranges, count, part + 1, parts, align);
  for (std::size_t i = from.range; i < count && i <= to.range; ++i) {
    const int64_t start = i == from.range ? from.column : 0;
    const int64_t end = i == to.range ? to.column : ranges[i].columns;
    if (end > start) run(i, start, end);
  }
}

}  // namespace mrnn::engine
