#include "engine/bench/bench_shape.h"

namespace mrnn::engine {

const char* benchMeasureName(BenchMeasure measure) {
  switch (measure) {
    case BenchMeasure::Train:
      return "train";
    case BenchMeasure::Eval:
      return "eval";
    case BenchMeasure::Sample:
      return "sample";
  }
  return "?";
}

std::optional<BenchMeasure> benchMeasureFromName(const std::string& name) {
  for (auto m : {BenchMeasure::Train, BenchMeasure::Eval, BenchMeasure::Sample}) {
    if (name == benchMeasureName(m)) return m;
  }
  return std::nullopt;
}

}  // namespace mrnn::engine
