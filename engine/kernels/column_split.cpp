#include "engine/kernels/column_split.h"

#include <algorithm>
#include <cmath>

namespace mrnn::engine {

ColumnCut columnCut(const ColumnRange* ranges, std::size_t count, int part, int parts,
                    int64_t align) {
  if (part <= 0) return {0, 0};
  if (part >= parts) return {count, 0};
  double total = 0.0;
  for (std::size_t i = 0; i < count; ++i) total += ranges[i].workPerColumn * ranges[i].columns;
  const double target = total * part / parts;
  double before = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const double work = ranges[i].workPerColumn * ranges[i].columns;
    if (target < before + work) {
      const double columns = (target - before) / ranges[i].workPerColumn;
      const auto rounded = static_cast<int64_t>(std::llround(columns / align)) * align;
      return {i, std::clamp<int64_t>(rounded, 0, ranges[i].columns)};
    }
    before += work;
  }
  return {count, 0};
}

}  // namespace mrnn::engine
