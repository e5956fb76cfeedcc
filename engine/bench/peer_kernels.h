#pragma once

#include <set>
#include <string>
#include <vector>

namespace mrnn::engine {

// The peer's BLAS kernels beside the engine's. OpenBLAS picks its kernels by CPU model in each
// process; where it does not know the CPU it falls back to generic ones (Prescott), which mrnn
// corrects by relaunching itself (blas_kernels.h) but a Python peer does not. So the suite
// gives every child the core the engine runs (`engineCore`, openBlasCoreName()), and asks the
// peer's OpenBLAS to name the core it ran: "/ peer" then compares code, not BLAS kernels.

// OPENBLAS_CORETYPE for every child, or nothing when the engine's BLAS is not OpenBLAS.
std::vector<std::string> sameKernelsEnvironment(const std::string& engineCore);
// What the peer's environment adds: OpenBLAS names its core on stderr ("Core: Haswell").
std::string peerKernelsReport();
// The core named in a child's stderr, or "" when it named none (not OpenBLAS).
std::string openBlasCoreNamed(const std::string& err);
// The report's line on the peer's kernels: the same as the engine's, others, or unknown;
// "" when there was no peer or the engine's BLAS is not OpenBLAS.
std::string peerKernelsNote(const std::string& engineCore, const std::set<std::string>& peerCores,
                            bool peerMeasured);

}  // namespace mrnn::engine
