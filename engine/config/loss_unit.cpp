#include "engine/config/loss_unit.h"

#include <cmath>

#include "engine/config/project_file.h"

namespace mrnn::engine {

LossUnit lossUnitOf(const Project& project) {
  return project.model.predictsSymbols() ? LossUnit::Bits : LossUnit::SquaredError;
}

LossUnit recordedLossUnit(const std::string& configYaml) {
  // model_config_writer.cpp: "  output:" at the model's indent, its type on the next line.
  return configYaml.find("\n  output:\n    type: linear\n") != std::string::npos
             ? LossUnit::SquaredError
             : LossUnit::Bits;
}

double inLossUnit(double storedBits, LossUnit unit) {
  return unit == LossUnit::SquaredError ? storedBits * std::log(2.0) : storedBits;
}

const char* lossUnitLabel(LossUnit unit) {
  return unit == LossUnit::SquaredError ? "sq. error" : "bpc";
}

bool lossUnitsMix(const std::vector<LossUnit>& units) {
  for (const LossUnit unit : units) {
    if (unit != units.front()) return true;
  }
  return false;
}

bool allSquaredErrors(const std::vector<LossUnit>& units) {
  return !units.empty() && !lossUnitsMix(units) && units.front() == LossUnit::SquaredError;
}

std::string lossColumnTitle(const std::string& prefix, const std::vector<LossUnit>& units) {
  if (lossUnitsMix(units)) return prefix;
  return prefix + " " + lossUnitLabel(units.empty() ? LossUnit::Bits : units.front());
}

std::string lossCellText(const std::string& figure, LossUnit unit, bool mixed) {
  if (!mixed || figure == "-") return figure;
  return figure + " " + lossUnitLabel(unit);
}

}  // namespace mrnn::engine
