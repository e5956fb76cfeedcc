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
    case BenchMeasure::Curvature:
      return "curvature";
    case BenchMeasure::Score:
      return "score";
  }
  return "?";
}

std::optional<BenchMeasure> benchMeasureFromName(const std::string& name) {
  for (auto m : {BenchMeasure::Train, BenchMeasure::Eval, BenchMeasure::Sample,
                 BenchMeasure::Curvature, BenchMeasure::Score}) {
    if (name == benchMeasureName(m)) return m;
  }
  return std::nullopt;
}

const char* benchPrecisionName(BenchPrecision precision) {
  return precision == BenchPrecision::Bf16 ? "bf16" : "fp32";
}

std::optional<BenchPrecision> benchPrecisionFromName(const std::string& name) {
  for (auto p : {BenchPrecision::Fp32, BenchPrecision::Bf16}) {
    if (name == benchPrecisionName(p)) return p;
  }
  return std::nullopt;
}

}  // namespace mrnn::engine
