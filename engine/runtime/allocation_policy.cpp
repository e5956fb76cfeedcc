#include "engine/runtime/allocation_policy.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace mrnn::engine {

void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
  // Blocks up to 32 MB (glibc's largest mmap threshold on 64-bit) from the heap; freed heap
  // top kept up to 1 GB before it is trimmed.
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
#endif
}

}  // namespace mrnn::engine
