#include "engine/training/step_report.h"

#include <algorithm>
#include <cmath>

namespace mrnn::engine {

StepEvent stepEvent(const UpdateResult& result, double rate, const RunCounters& counters,
                    double epoch, const StepTiming& timing, double etaSeconds) {
  StepEvent event;
  event.step = counters.step;
  event.epoch = epoch;
  event.loss = result.loss;
  event.bitsPerSymbol = result.loss / std::log(2.0);
  event.learningRate = rate;
  event.gradientNorm = result.gradientNorm;
  event.symbolsPerSecond = static_cast<double>(timing.symbols) / std::max(timing.seconds, 1e-9);
  event.symbols = counters.symbols;
  event.etaSeconds = etaSeconds;
  event.wallSeconds = counters.wallSeconds;
  const int64_t streamSymbols =
      timing.symbols / std::max<int64_t>(1, timing.batch) * timing.streams;
  for (const double seconds : timing.rankSeconds) {
    event.rankSymbolsPerSecond.push_back(static_cast<double>(streamSymbols) /
                                         std::max(seconds, 1e-9));
  }
  event.update = result.figures;
  return event;
}

}  // namespace mrnn::engine
