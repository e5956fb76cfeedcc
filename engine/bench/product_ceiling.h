#pragma once

#include <cstdint>

namespace mrnn::engine {

// The machine's own limit for the work a recurrent window is made of: the GFLOP/s of a large
// square float32 product (torch::mm, the BLAS and thread count the engine's own products
// get), median of `repeats` after a warm-up. Every bench row's GFLOP/s is read as a share
// of it, so a table says how far each subject is from what the machine can do.
constexpr int64_t kCeilingProductSize = 2048;

double productCeilingGflops(int64_t size = kCeilingProductSize, int repeats = 5);

}  // namespace mrnn::engine
