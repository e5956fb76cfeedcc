#include "engine/kernels/parallel_rows.h"

#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace mrnn::engine {

namespace {

// Below this many floats a thread, the fork and join (a few microseconds with the threads
// still spinning from the last product) cost more than a second thread saves.
constexpr int64_t kLeastFloatsPerThread = 8 * 1024;

}  // namespace

void parallelRowsOn(int64_t rows, int64_t floatsPerRow, int threads,
                    void (*run)(const void* block, int64_t begin, int64_t end), const void* block) {
  if (rows <= 0) return;
#ifdef _OPENMP
  const int64_t work = rows * std::max<int64_t>(floatsPerRow, 1);
  const int parts =
      static_cast<int>(std::min<int64_t>({threads, rows, work / kLeastFloatsPerThread}));
  if (parts >= 2 && !omp_in_parallel()) {
#pragma omp parallel num_threads(parts)
    {
      const int64_t part = omp_get_thread_num(), team = omp_get_num_threads();
      const int64_t begin = rows * part / team, end = rows * (part + 1) / team;
      if (end > begin) run(block, begin, end);
    }
    return;
  }
#endif
  (void)threads;
  run(block, 0, rows);
}

}  // namespace mrnn::engine
