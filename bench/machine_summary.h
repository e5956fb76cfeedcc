#pragma once

#include <string>

namespace mrnn::bench {

// One line naming the machine a measurement ran on: the CPU model, its logical processors,
// the vector extensions it reports (AVX2, FMA, AVX-512 subsets; NEON, SVE on Arm), the
// target Highway's dispatch picks here, and the load average.
std::string machineSummary();

// /proc/loadavg's first three fields, or "?" where there is none.
std::string loadAverage();

}  // namespace mrnn::bench
