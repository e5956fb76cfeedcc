#pragma once

#include <torch/types.h>

#include <utility>
#include <vector>

namespace mrnn::engine {

// The dropout masks of one window, drawn at its first forward pass and handed out again, in
// the same order, at every later one. An update that evaluates the same window several times
// (its loss, its gradient, curvature products, a line search) must see the same masks each
// time, or the function it minimises changes under it. A mask is recorded as drawn, undefined
// ones included (no dropout), so that the order never shifts.
class WindowMasks {
 public:
  // The next mask: the recorded one when this pass replays, otherwise `draw()`'s, recorded.
  // `perStream`: the mask's rows are the window's streams ([B, F]), so a pass over some of
  // the streams (streams()) takes those rows; other masks (a vocabulary's, a weight's) apply
  // whole.
  template <typename Draw>
  torch::Tensor next(bool perStream, Draw&& draw) {
    if (next_ < masks_.size()) return masks_[next_++].mask;
    masks_.push_back({std::forward<Draw>(draw)(), perStream});
    ++next_;
    return masks_.back().mask;
  }
  // The next pass starts again from the first mask.
  void rewind() { next_ = 0; }
  // The masks of a pass over the streams `rows` (a long tensor of stream indices) only.
  WindowMasks streams(const torch::Tensor& rows) const;
  size_t size() const { return masks_.size(); }

 private:
  struct Recorded {
    torch::Tensor mask;
    bool perStream = false;
  };
  std::vector<Recorded> masks_;
  size_t next_ = 0;
};

// `draw()`, or the next of `masks` when there are masks to replay or record.
template <typename Draw>
torch::Tensor nextMask(WindowMasks* masks, bool perStream, Draw&& draw) {
  return masks ? masks->next(perStream, std::forward<Draw>(draw)) : std::forward<Draw>(draw)();
}

}  // namespace mrnn::engine
