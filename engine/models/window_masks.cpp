#include "engine/models/window_masks.h"

#include <torch/torch.h>

namespace mrnn::engine {

WindowMasks WindowMasks::streams(const torch::Tensor& rows) const {
  WindowMasks out;
  for (const auto& recorded : masks_) {
    const bool select = recorded.perStream && recorded.mask.defined();
    out.masks_.push_back(
        {select ? recorded.mask.index_select(0, rows.to(recorded.mask.device())) : recorded.mask,
         recorded.perStream});
  }
  return out;
}

}  // namespace mrnn::engine
