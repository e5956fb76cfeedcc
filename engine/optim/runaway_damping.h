#pragma once

#include <cstdint>

namespace mrnn::engine {

// A Hessian-free run whose λ has run away: ρ raised it at kRunawayRaises or more of the last
// kRunawaySteps steps and it is now above kRunawayLambda. Left alone, λ grows by 3/2 a raise to
// overflow while the loss stays where it is (a 3-bit temporal order run at T = 100 did so for
// 1,700 steps). Not "every one of them": once λ is that large its steps barely move the
// weights, ρ measures rounding, and now and then a step lowers λ again (a 2-bit run at T = 200
// raised it at 35 to 45 of every 50 steps for 130 steps, λ reaching 1e17). Healthy runs here
// keep λ between 1e-83 and a few dozen. Free of LibTorch: the banner's words use it too.
inline constexpr int64_t kRunawaySteps = 50;
inline constexpr int64_t kRunawayRaises = 40;
inline constexpr double kRunawayLambda = 1e4;

// Which of the last kRunawaySteps steps raised λ: bit 0 the latest. Kept in checkpoints.
class DampingRaises {
  static_assert(kRunawaySteps < 64, "the window is one 64-bit word");

 public:
  DampingRaises() = default;
  explicit DampingRaises(uint64_t bits) : bits_(bits & kWindow) {}

  void record(bool raised) { bits_ = ((bits_ << 1) | (raised ? 1u : 0u)) & kWindow; }
  uint64_t bits() const { return bits_; }
  int64_t count() const {
    int64_t n = 0;
    for (uint64_t b = bits_; b != 0; b &= b - 1) ++n;
    return n;
  }

 private:
  static constexpr uint64_t kWindow = (uint64_t{1} << kRunawaySteps) - 1;
  uint64_t bits_ = 0;
};

inline bool dampingRanAway(const DampingRaises& raises, double lambda) {
  return raises.count() >= kRunawayRaises && !(lambda <= kRunawayLambda);  // NaN counts
}

}  // namespace mrnn::engine
