#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/welch_test.h"

namespace mrnn::engine {

// A paper's ordering (ExperimentClaim) tested on the measured seeds.
struct ClaimResult {
  enum class Verdict {
    Holds,           // the claimed side lower, one-sided p < 0.05
    NotSignificant,  // the claimed side lower in the means, p >= 0.05 (or no spread to test)
    Reversed,        // the other side lower in the means
    Waiting,         // a side has no figure yet
  };
  ExperimentClaim claim;
  std::string betterLabel;  // the configurations' labels ("type=mlstm (H 114)")
  std::string worseLabel;
  SeedSummary better;  // the metric over each side's seeds
  SeedSummary worse;
  std::optional<WelchTest> test;  // Welch's, two-sided as welchTest gives it
  double oneSidedP = 1.0;         // P(a difference this far in the claimed direction by chance)
  Verdict verdict = Verdict::Waiting;

  // "holds", "holds in the means, not significant", "reversed", "not measured yet"
  std::string verdictText() const;
};

// The significance level of the verdicts.
constexpr double kClaimSignificance = 0.05;

// One result per claim of the plan's experiment, in the file's order. Each side selects one
// configuration (checkClaims makes sure when the experiment is planned).
std::vector<ClaimResult> claimResults(const ExperimentPlan& plan,
                                      const std::vector<ConfigurationResult>& rows);

// Throws ConfigError at a claim whose side selects no configuration of the plan, or several.
void checkClaims(const ExperimentPlan& plan);

// The claims as text, one paragraph each ("" when the experiment states none).
std::string claimsText(const std::vector<ClaimResult>& claims);
// The claims as a JSON array.
std::string claimsJson(const std::vector<ClaimResult>& claims);

}  // namespace mrnn::engine
