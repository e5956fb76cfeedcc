#pragma once

#include <cstdint>

namespace mrnn::engine {

// A Hessian-free run whose λ has run away: raised (ρ < 1/4) at each of the last
// kRunawaySteps steps and now above kRunawayLambda. No step in that many kept what its model
// promised; left alone, λ grows by 3/2 a step to overflow while the loss stays where it is (a
// 3-bit temporal order run at T = 100 did so for 1,700 steps). Healthy runs here keep λ
// between 1e-83 and a few hundred. Free of LibTorch: the banner's words use it too.
inline constexpr int64_t kRunawaySteps = 50;
inline constexpr double kRunawayLambda = 1e4;

inline bool dampingRanAway(int64_t raisedInARow, double lambda) {
  return raisedInARow >= kRunawaySteps && !(lambda <= kRunawayLambda);  // NaN counts
}

}  // namespace mrnn::engine
