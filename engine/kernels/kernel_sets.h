#pragma once

#include <vector>

#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// The kernel sets behind vector_kernels.cpp: the portable loops (kernels_scalar.cpp) and,
// with MRNN_HIGHWAY, the vector kernels (kernels_highway.cpp). Highway compiles the latter
// once per target with target attributes, not per-file -m flags, so no other code in the
// binary is built for those instruction sets (an inline function compiled with -mavx512f in
// one file could otherwise be the copy the linker keeps for all, and fault on an older CPU).
const KernelSet& scalarKernels();

#if defined(MRNN_HAVE_HIGHWAY)
// Highway's kernels compiled for one of its targets: `target` is that target's HWY_* bit.
struct HighwayKernelSet {
  KernelSet kernels;
  int64_t target;
};
// The target HWY_DYNAMIC_DISPATCH chooses on this CPU.
const HighwayKernelSet& highwayKernels();
// Every target compiled in and run by this CPU, best first (tests run each one).
std::vector<const HighwayKernelSet*> highwayTargetKernels();
const char* highwayTargetName(int64_t target);
#endif

}  // namespace mrnn::engine
