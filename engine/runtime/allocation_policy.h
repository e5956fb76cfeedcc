#pragma once

namespace mrnn::engine {

// Asks the C library's allocator to keep freed memory for reuse instead of handing it back
// to the kernel at once. A training window allocates the same few large buffers (the fused
// windows' saved activations and gradients, 1-60 MB each) and frees them when its backward
// pass ends; glibc serves large blocks with mmap and unmaps them on free, so every window paid
// for zero-filled fresh pages again: ~10% of training time in page faults (perf, mrnn at hidden
// 512), and in a virtual machine more than perf sees (a true mLSTM's 52 MB input gradient cost
// a fifth of its window's backward pass in first touches). With these settings every block
// comes from the heap and stays mapped. Call once, early, in a process that trains or
// evaluates; the process's resident size stays at its peak. Does nothing outside glibc.
void keepFreedMemoryForReuse();

}  // namespace mrnn::engine
