#include "engine/runtime/allocation_policy.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace mrnn::engine {

void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
  // No block through mmap, whatever its size (glibc's mmap threshold stops at 32 MB, and
  // a true mLSTM's window at hidden 512 frees 52 MB blocks): the main thread's from the heap
  // at any size, another thread's from its arena's heaps up to their 64 MB (glibc still maps
  // a larger block there). Freed heap top kept up to 1 GB before it is trimmed.
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
#endif
}

}  // namespace mrnn::engine
