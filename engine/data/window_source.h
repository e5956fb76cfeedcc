#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

struct Window;

// Where the training loop's windows come from: a corpus cut into streams (StreamBatcher) or a
// long-range problem's fresh sequences (ProblemBatcher). Its position is saved in checkpoints,
// so that a resumed run reads the same windows.
class WindowSource {
 public:
  virtual ~WindowSource() = default;

  // The next window; wraps to a new epoch at the end (epoch() is the epoch of the window last
  // returned, and epochProgress() reaches 1 after an epoch's last window).
  virtual Window next() = 0;
  virtual int64_t epoch() const = 0;
  virtual double epochProgress() const = 0;  // 0..1
  // Windows in one epoch (at the nominal window length).
  virtual int64_t windowsPerEpoch() const = 0;

  // Everything needed to continue exactly, as text; restoreState() throws
  // std::invalid_argument for a malformed state or one saved for other data.
  virtual std::string saveState() const = 0;
  virtual void restoreState(const std::string& state) = 0;
};

}  // namespace mrnn::engine
