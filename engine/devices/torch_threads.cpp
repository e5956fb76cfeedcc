#include "engine/devices/torch_threads.h"

#include <torch/torch.h>

#include <utility>

namespace mrnn::engine {

std::shared_ptr<LoadFollowingThreads> torchThreads(int64_t requested,
                                                   LoadFollowingThreads::Note note,
                                                   ThreadsWording wording,
                                                   double firstReadingSeconds) {
  return std::make_shared<LoadFollowingThreads>(
      requested, [](int threads) { torch::set_num_threads(threads); }, std::move(note),
      std::move(wording), firstReadingSeconds);
}

}  // namespace mrnn::engine
