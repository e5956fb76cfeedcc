#include "engine/experiment/claim_results.h"

#include <cstdio>
#include <sstream>

#include "engine/config/config_error.h"
#include "engine/experiment/setting_selector.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

std::string figureText(const SeedSummary& summary) {
  if (summary.count == 0) return "-";
  char text[96];
  if (summary.count > 1) {
    std::snprintf(text, sizeof text, "%.4f ± %.4f (%lld seeds)", summary.mean, summary.stddev,
                  static_cast<long long>(summary.count));
  } else {
    std::snprintf(text, sizeof text, "%.4f (1 seed)", summary.mean);
  }
  return text;
}

std::string pText(double p) {
  char text[32];
  if (p < 0.0001) return "p < 0.0001";
  std::snprintf(text, sizeof text, "p = %.4f", p);
  return text;
}

std::string jsonSummary(const SeedSummary& summary) {
  if (summary.count == 0) return "null";
  std::string values;
  for (const double value : summary.values)
    values += (values.empty() ? "" : ", ") + jsonNumber(value);
  return "{\"mean\": " + jsonNumber(summary.mean) + ", \"std\": " + jsonNumber(summary.stddev) +
         ", \"seeds\": " + std::to_string(summary.count) + ", \"values\": [" + values + "]}";
}

const ConfigurationResult* rowOf(const std::vector<ConfigurationResult>& rows,
                                 const std::map<std::string, std::string>& selector) {
  for (const ConfigurationResult& row : rows) {
    if (settingsMatch(selector, row.settings)) return &row;
  }
  return nullptr;
}

}  // namespace

std::string ClaimResult::verdictText() const {
  switch (verdict) {
    case Verdict::Holds:
      return "holds";
    case Verdict::NotSignificant:
      return "holds in the means, not significant";
    case Verdict::Reversed:
      return "reversed";
    case Verdict::Waiting:
      break;
  }
  return "not measured yet";
}

std::vector<ClaimResult> claimResults(const ExperimentPlan& plan,
                                      const std::vector<ConfigurationResult>& rows) {
  std::vector<ClaimResult> results;
  for (const ExperimentClaim& claim : plan.experiment.claims) {
    ClaimResult result;
    result.claim = claim;
    const ConfigurationResult* better = rowOf(rows, claim.better);
    const ConfigurationResult* worse = rowOf(rows, claim.worse);
    result.betterLabel = better ? better->label : selectorText(claim.better);
    result.worseLabel = worse ? worse->label : selectorText(claim.worse);
    if (better) result.better = measuredFigure(*better, claim.metric).value_or(SeedSummary{});
    if (worse) result.worse = measuredFigure(*worse, claim.metric).value_or(SeedSummary{});
    if (result.better.count > 0 && result.worse.count > 0) {
      const bool lower = result.better.mean < result.worse.mean;
      result.test = welchTest(result.better.values, result.worse.values);
      if (result.test) {
        // The two-sided p halved on the claimed side; the rest of the mass on the other.
        result.oneSidedP = lower ? result.test->p / 2.0 : 1.0 - result.test->p / 2.0;
      }
      if (!lower) {
        result.verdict = ClaimResult::Verdict::Reversed;
      } else if (result.test && result.oneSidedP < kClaimSignificance) {
        result.verdict = ClaimResult::Verdict::Holds;
      } else {
        result.verdict = ClaimResult::Verdict::NotSignificant;
      }
    }
    results.push_back(std::move(result));
  }
  return results;
}

void checkClaims(const ExperimentPlan& plan) {
  const Experiment& experiment = plan.experiment;
  for (const ExperimentClaim& claim : experiment.claims) {
    for (const auto* side : {&claim.better, &claim.worse}) {
      const SpecLocation& at = side == &claim.better ? claim.betterAt : claim.worseAt;
      const size_t found = matchingConfigurations(plan, *side).size();
      if (found == 1) continue;
      const std::string what =
          "'" + selectorText(*side) + "' selects " +
          (found == 0 ? std::string("no configuration of the experiment")
                      : std::to_string(found) + " configurations; name one by more keys");
      throw ConfigError(experiment.file, at.line, at.column, at.key, what);
    }
  }
}

std::string claimsText(const std::vector<ClaimResult>& claims) {
  if (claims.empty()) return "";
  std::ostringstream out;
  out << "\nclaims (lower is better; Welch's t-test, one-sided on the claimed ordering, "
      << "significant below " << formatDouble(kClaimSignificance) << "):\n";
  for (size_t i = 0; i < claims.size(); ++i) {
    const ClaimResult& claim = claims[i];
    out << i + 1 << ". " << claim.betterLabel << " below " << claim.worseLabel << " in "
        << claim.claim.metric << " (" << claim.claim.source << "): " << claim.verdictText()
        << "\n   " << figureText(claim.better) << " against " << figureText(claim.worse);
    if (claim.better.count > 0 && claim.worse.count > 0) {
      char difference[64];
      std::snprintf(difference, sizeof difference, "; difference %+.4f",
                    claim.better.mean - claim.worse.mean);
      out << difference;
    }
    if (claim.test) {
      char line[96];
      std::snprintf(line, sizeof line, "; t = %.2f on %.1f degrees of freedom, ", claim.test->t,
                    claim.test->degreesOfFreedom);
      out << line << pText(claim.oneSidedP);
    } else if (claim.better.count > 0 && claim.worse.count > 0) {
      out << "; no test (it needs two seeds or more of each, with some spread)";
    }
    out << "\n";
  }
  return out.str();
}

std::string claimsJson(const std::vector<ClaimResult>& claims) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < claims.size(); ++i) {
    const ClaimResult& claim = claims[i];
    out << (i ? ", " : "") << "{\"better\": " << jsonString(claim.betterLabel)
        << ", \"worse\": " << jsonString(claim.worseLabel)
        << ", \"metric\": " << jsonString(claim.claim.metric)
        << ", \"source\": " << jsonString(claim.claim.source)
        << ", \"better_figure\": " << jsonSummary(claim.better)
        << ", \"worse_figure\": " << jsonSummary(claim.worse)
        << ", \"t\": " << (claim.test ? jsonNumber(claim.test->t) : "null")
        << ", \"degrees_of_freedom\": "
        << (claim.test ? jsonNumber(claim.test->degreesOfFreedom) : "null")
        << ", \"p_one_sided\": " << (claim.test ? jsonNumber(claim.oneSidedP) : "null")
        << ", \"verdict\": " << jsonString(claim.verdictText()) << "}";
  }
  out << "]";
  return out.str();
}

}  // namespace mrnn::engine
