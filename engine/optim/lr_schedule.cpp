#include "engine/optim/lr_schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace mrnn::engine {
namespace {

// Plateau never decays below this fraction of the base rate (nor below `floor`): a run that
// stalls for long keeps a usable rate.
constexpr double kPlateauMinFraction = 1e-7;

// Hexadecimal floating point: exact, and strtod reads it back (including inf).
std::string exact(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", value);
  return buffer;
}

double parseExact(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    throw std::invalid_argument("learning-rate schedule state: bad number '" + text + "'");
  }
  return value;
}

}  // namespace

LrSchedule::LrSchedule(const ScheduleConfig& config, double baseRate, int64_t totalSteps,
                       int64_t stepsPerEpoch)
    : config_(config),
      baseRate_(baseRate),
      totalSteps_(totalSteps),
      stepsPerEpoch_(std::max<int64_t>(1, stepsPerEpoch)),
      plateauRate_(baseRate),
      bestLoss_(std::numeric_limits<double>::infinity()) {}

double LrSchedule::rate(int64_t step) const {
  switch (config_.kind) {
    case ScheduleKind::Constant:
      return baseRate_;
    case ScheduleKind::Linear: {
      // Krause et al.: straight down from the base rate to `floor` at totalSteps, then flat.
      if (totalSteps_ <= 0) return baseRate_;
      const double progress =
          std::clamp(static_cast<double>(step) / static_cast<double>(totalSteps_), 0.0, 1.0);
      return baseRate_ + (config_.floor - baseRate_) * progress;
    }
    case ScheduleKind::Exponential:
      // gamma per epoch, applied continuously (fractional epochs).
      return baseRate_ * std::pow(config_.gamma,
                                  static_cast<double>(step) / static_cast<double>(stepsPerEpoch_));
    case ScheduleKind::Steps: {
      // gamma once for every milestone reached; epochs count completed epochs.
      const int64_t epoch = step / stepsPerEpoch_;
      const auto reached = std::count_if(config_.milestones.begin(), config_.milestones.end(),
                                         [epoch](int64_t m) { return m <= epoch; });
      return baseRate_ * std::pow(config_.gamma, static_cast<double>(reached));
    }
    case ScheduleKind::Plateau:
      return plateauRate_;
  }
  return baseRate_;
}

void LrSchedule::onValidation(double validLoss) {
  if (validLoss < bestLoss_) {
    bestLoss_ = validLoss;
    badValidations_ = 0;
    return;
  }
  ++badValidations_;
  if (config_.kind == ScheduleKind::Plateau && badValidations_ >= config_.patience) {
    const double lowest = std::max(config_.floor, baseRate_ * kPlateauMinFraction);
    plateauRate_ = std::max(plateauRate_ * config_.factor, lowest);
    badValidations_ = 0;
  }
}

std::string LrSchedule::saveState() const {
  return "plateau_rate=" + exact(plateauRate_) + " best_loss=" + exact(bestLoss_) +
         " bad_validations=" + std::to_string(badValidations_);
}

void LrSchedule::restoreState(const std::string& state) {
  std::istringstream in(state);
  std::string token;
  double rate = baseRate_;
  double best = std::numeric_limits<double>::infinity();
  int64_t bad = 0;
  int seen = 0;
  while (in >> token) {
    const auto eq = token.find('=');
    if (eq == std::string::npos) {
      throw std::invalid_argument("learning-rate schedule state: bad entry '" + token + "'");
    }
    const std::string name = token.substr(0, eq);
    const std::string value = token.substr(eq + 1);
    if (name == "plateau_rate") {
      rate = parseExact(value);
    } else if (name == "best_loss") {
      best = parseExact(value);
    } else if (name == "bad_validations") {
      bad = static_cast<int64_t>(parseExact(value));
    } else {
      throw std::invalid_argument("learning-rate schedule state: unknown entry '" + name + "'");
    }
    ++seen;
  }
  if (seen != 3) throw std::invalid_argument("learning-rate schedule state: incomplete");
  plateauRate_ = rate;
  bestLoss_ = best;
  badValidations_ = bad;
}

}  // namespace mrnn::engine
