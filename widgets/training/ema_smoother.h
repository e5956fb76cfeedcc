#pragma once

#include <cmath>
#include <cstdint>

namespace mrnn::widgets {

// An exponential moving average with the start-up bias removed (as TensorBoard smooths):
// the first points are not dragged toward zero, so the smoothed curve starts on the data.
class EmaSmoother {
 public:
  explicit EmaSmoother(double weight = 0.9) : weight_(weight) {}

  double weight() const { return weight_; }
  void reset() {
    biased_ = 0.0;
    count_ = 0;
  }
  // Adds a value and returns the smoothed value at it. Non-finite values pass through
  // without disturbing the average (a diverged step must not poison the rest of the curve).
  double add(double value) {
    if (!std::isfinite(value)) return value;
    biased_ = weight_ * biased_ + (1.0 - weight_) * value;
    ++count_;
    const double correction = 1.0 - std::pow(weight_, static_cast<double>(count_));
    return correction > 0.0 ? biased_ / correction : value;
  }

 private:
  double weight_;
  double biased_ = 0.0;
  int64_t count_ = 0;
};

}  // namespace mrnn::widgets
