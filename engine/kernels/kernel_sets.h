#pragma once

#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// The kernel sets of each instruction set (kernels_<isa>.cpp), for vector_kernels.cpp. The
// AVX2 and AVX-512 sets exist only in x86-64 builds; their functions carry target attributes
// instead of per-file -m flags, so no other code in the binary is compiled for those
// instruction sets (an inline function compiled with -mavx512f in one file could otherwise be
// the copy the linker keeps for all, and fault on an older CPU).
const KernelSet& scalarKernels();
#if defined(__x86_64__)
const KernelSet& avx2Kernels();
const KernelSet& avx512Kernels();
#endif

}  // namespace mrnn::engine
