#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace mrnn::widgets {

// An exponential moving average with the start-up bias removed (as TensorBoard smooths):
// the first points are not dragged toward zero, so the smoothed curve starts on the data.
class EmaSmoother {
 public:
  explicit EmaSmoother(double weight = 0.9) : weight_(weight) {}

  // The weight a curve of `points` points is smoothed with: `weight`, but never one whose
  // window (about 1 / (1 - weight) points) spans more than a fifth of the curve. A short run
  // is not flattened into its first steps' losses (a 20-step run smoothed at 0.9 read 5.2 bits
  // where it stood at 3.6); a long one is smoothed as asked. The curve is counted in powers of
  // two, so that a live curve's weight changes (and it is drawn again) only as it doubles.
  static double weightFor(double weight, size_t points) {
    size_t counted = 1;
    while (counted * 2 <= points) counted *= 2;
    const double longest = 1.0 - 5.0 / static_cast<double>(counted);
    return weight < longest ? weight : (longest > 0.0 ? longest : 0.0);
  }

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
