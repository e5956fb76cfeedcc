#pragma once

#include <algorithm>
#include <vector>

namespace mrnn::bench {

// The median of repeated measurements and their range: on a shared machine a single run says
// little, and the range shows how far apart two medians must be to mean anything.
struct Spread {
  double median = 0.0;
  double low = 0.0;
  double high = 0.0;
};

inline Spread spreadOf(std::vector<double> runs) {
  if (runs.empty()) return {};
  std::sort(runs.begin(), runs.end());
  const size_t n = runs.size();
  const double median = n % 2 ? runs[n / 2] : 0.5 * (runs[n / 2 - 1] + runs[n / 2]);
  return {median, runs.front(), runs.back()};
}

}  // namespace mrnn::bench
