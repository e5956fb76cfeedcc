#pragma once

#include <cstdint>

namespace mrnn::engine {

// Runs block(begin, end) over row blocks of [0, rows) on `threads` OpenMP threads, when there
// is enough work (rows x floatsPerRow) to repay the fork and join; on the calling thread
// otherwise, and inside a parallel region. A fused window's element-wise passes between its
// products would else leave every thread but one waiting.
void parallelRowsOn(int64_t rows, int64_t floatsPerRow, int threads,
                    void (*run)(const void* block, int64_t begin, int64_t end), const void* block);

template <class Block>
void parallelRows(int64_t rows, int64_t floatsPerRow, int threads, const Block& block) {
  parallelRowsOn(
      rows, floatsPerRow, threads,
      [](const void* b, int64_t begin, int64_t end) {
        (*static_cast<const Block*>(b))(begin, end);
      },
      &block);
}

}  // namespace mrnn::engine
