#include "engine/data/shrink_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <mutex>

namespace mrnn::engine {
namespace {

// What the handler reads: plain atomics, no allocation, no locks.
struct WatchedRange {
  std::atomic<uintptr_t> begin{0};  // 0: a free slot
  std::atomic<uintptr_t> end{0};
  std::atomic<std::atomic<bool>*> shrank{nullptr};
  std::atomic<bool> taken{false};
};

WatchedRange gRanges[ShrinkGuard::kMaxWatched];
struct sigaction gPrevious {};
uintptr_t gPageSize = 4096;
std::once_flag gInstalled;

void onBusError(int, siginfo_t* info, void*) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (WatchedRange& range : gRanges) {
    const uintptr_t begin = range.begin.load(std::memory_order_acquire);
    const uintptr_t end = range.end.load(std::memory_order_acquire);
    if (begin == 0 || address < begin || address >= end) continue;
    // Zeros from the faulting page to the end of the mapping: the read resumes, and the
    // reader learns of the shrink from the flag. mmap is a plain system call here.
    const uintptr_t page = address & ~(gPageSize - 1);
    void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) break;
    if (std::atomic<bool>* flag = range.shrank.load(std::memory_order_acquire))
      flag->store(true, std::memory_order_release);
    return;
  }
  // Not a watched mapping: the faulting read runs again under the disposition we replaced.
  ::sigaction(SIGBUS, &gPrevious, nullptr);
}

void install() {
  gPageSize = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  struct sigaction action {};
  action.sa_sigaction = onBusError;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &gPrevious);
}

}  // namespace

ShrinkGuard::ShrinkGuard(const void* begin, int64_t size) {
  if (begin == nullptr || size <= 0) return;
  std::call_once(gInstalled, install);
  const auto first = reinterpret_cast<uintptr_t>(begin);
  const uintptr_t end =
      first + (static_cast<uintptr_t>(size) + gPageSize - 1) / gPageSize * gPageSize;
  for (int i = 0; i < kMaxWatched; ++i) {
    bool expected = false;
    if (!gRanges[i].taken.compare_exchange_strong(expected, true)) continue;
    gRanges[i].end.store(end, std::memory_order_release);
    gRanges[i].shrank.store(&shrank_, std::memory_order_release);
    gRanges[i].begin.store(first, std::memory_order_release);  // published last
    slot_ = i;
    return;
  }
}

ShrinkGuard::~ShrinkGuard() {
  if (slot_ < 0) return;
  WatchedRange& range = gRanges[slot_];
  range.begin.store(0, std::memory_order_release);
  range.shrank.store(nullptr, std::memory_order_release);
  range.end.store(0, std::memory_order_release);
  range.taken.store(false, std::memory_order_release);
}

}  // namespace mrnn::engine
