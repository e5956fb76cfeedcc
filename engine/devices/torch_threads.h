#pragma once

#include <cstdint>
#include <memory>

#include "engine/runtime/load_following_threads.h"

namespace mrnn::engine {

// LibTorch's threads for a computation on the calling thread (OpenMP's count is per thread):
// `requested` of them, or, for 0, as many as the machine's load leaves free, read again at
// each poll (a JobContext polls at each report). The one place a thread count reaches
// torch::set_num_threads.
std::shared_ptr<LoadFollowingThreads> torchThreads(int64_t requested,
                                                   LoadFollowingThreads::Note note = {},
                                                   ThreadsWording wording = {},
                                                   double firstReadingSeconds = 0.1);

}  // namespace mrnn::engine
