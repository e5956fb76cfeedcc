#pragma once

#include <atomic>
#include <cstdint>

namespace mrnn::engine {

// A file mapped into memory can be truncated by another process while it is read; the next
// read of a page past the new end raises SIGBUS, which would kill a training run. While a
// mapping is watched, such a read instead finds zeros from that page to the end of the
// mapping, and `shrank` is set so that the reader can fail with an error naming the file.
//
// The SIGBUS handler is process-wide by nature (a signal disposition is); it is installed
// on the first watch and passes every other SIGBUS on to the disposition it replaced.
class ShrinkGuard {
 public:
  // Watches [begin, begin + size) until the guard is destroyed. At most kMaxWatched
  // mappings are watched at once; a mapping beyond that is left unwatched (a shrink then
  // ends the process, as it would without the guard).
  ShrinkGuard(const void* begin, int64_t size);
  ~ShrinkGuard();
  ShrinkGuard(const ShrinkGuard&) = delete;
  ShrinkGuard& operator=(const ShrinkGuard&) = delete;

  bool shrank() const { return shrank_.load(std::memory_order_acquire); }
  bool watching() const { return slot_ >= 0; }

  static constexpr int kMaxWatched = 256;

 private:
  std::atomic<bool> shrank_{false};
  int slot_ = -1;
};

}  // namespace mrnn::engine
