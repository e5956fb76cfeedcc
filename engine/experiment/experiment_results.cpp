#include "engine/experiment/experiment_results.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "engine/data/long_range_problem.h"
#include "engine/experiment/claim_results.h"
#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/setting_selector.h"
#include "engine/store/run_eta.h"
#include "engine/store/run_lock.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

std::string fixed(double value, int digits = 4) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

// What a table's loss figures are, said once above it.
std::string unitsText(const std::vector<LossUnit>& units) {
  if (lossUnitsMix(units)) return "bits per symbol, or the squared error where marked so";
  return allSquaredErrors(units) ? "mean squared error" : "bits per symbol";
}

}  // namespace

std::vector<LossUnit> lossUnitsOf(const std::vector<ConfigurationResult>& rows) {
  std::vector<LossUnit> units;
  for (const ConfigurationResult& row : rows) units.push_back(row.unit);
  return units;
}

bool anyScoresSequences(const std::vector<ConfigurationResult>& rows) {
  for (const ConfigurationResult& row : rows) {
    if (row.scoresSequences) return true;
  }
  return false;
}

std::string percentMeanStd(const SeedSummary& summary) {
  if (summary.count == 0) return "-";
  std::string text = fixed(100.0 * summary.mean, 1) + "%";
  if (summary.count > 1) text += " ± " + fixed(100.0 * summary.stddev, 1) + "%";
  return text;
}

std::string solvedText(const ConfigurationResult& row) {
  if (row.testErrorRate.count == 0) return "-";
  return std::to_string(row.solved) + "/" + std::to_string(row.testErrorRate.count);
}

std::string meanStd(const SeedSummary& summary) {
  if (summary.count == 0) return "-";
  std::string text = fixed(summary.mean);
  if (summary.count > 1) text += " ± " + fixed(summary.stddev);
  return text;
}

namespace {

SeedSummary summarise(const std::vector<double>& values) {
  SeedSummary summary;
  summary.count = static_cast<int64_t>(values.size());
  summary.values = values;
  if (values.empty()) return summary;
  double sum = 0.0;
  for (const double v : values) sum += v;
  summary.mean = sum / static_cast<double>(values.size());
  if (values.size() > 1) {
    double squares = 0.0;
    for (const double v : values) squares += (v - summary.mean) * (v - summary.mean);
    summary.stddev = std::sqrt(squares / static_cast<double>(values.size() - 1));
  }
  return summary;
}

// Columns padded to their widest cell; the first row is the header, underlined.
std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  const auto width = [](const std::string& text) {
    size_t n = 0;
    for (const unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;  // UTF-8 characters
    return n;
  };
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  }
  std::ostringstream out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (size_t i = 0; i < rows[r].size(); ++i) {
      line += rows[r][i];
      if (i + 1 < rows[r].size()) line += std::string(widths[i] - width(rows[r][i]) + 2, ' ');
    }
    out << line << "\n";
    if (r == 0) {
      size_t total = 0;
      for (size_t i = 0; i < widths.size(); ++i)
        total += widths[i] + (i + 1 < widths.size() ? 2 : 0);
      out << std::string(total, '-') << "\n";
    }
  }
  return out.str();
}

}  // namespace

std::string TrialProgress::statusText() const {
  if (interrupted) return "interrupted";
  if (starting) return "starting";
  if (trial.status == TrialStatus::Queued && run && run->steps > 0) return "stopped";
  return trialStatusName(trial.status);
}

std::string TrialProgress::etaText() const {
  if (etaSeconds) return compactDuration(*etaSeconds);
  return finishing ? "validating" : "-";
}

bool trialTrainedNow(const std::string& projectFolder, const std::string& experiment,
                     int64_t trial) {
  return RunLock::holder(ExperimentPaths::trialLock(projectFolder, experiment, trial)).has_value();
}

int64_t recordedMaxSteps(const RunRecord& run) {
  // The recorded project is projectToYaml's text, where max_steps is written once (under
  // training): a scan, not a YAML parse per run, keeps `status` fast on thousands of trials.
  const std::string key = "max_steps: ";
  const size_t at = run.configYaml.find(key);
  if (at == std::string::npos) return 0;
  int64_t steps = 0;
  for (size_t i = at + key.size(); i < run.configYaml.size(); ++i) {
    const char c = run.configYaml[i];
    if (c < '0' || c > '9') break;
    if (steps > (INT64_MAX - 9) / 10) return 0;
    steps = steps * 10 + (c - '0');
  }
  return steps;
}

double recordedMaxSeconds(const RunRecord& run) {
  // As max_steps: written once, under training; 0 (no limit) when absent or not a number.
  const std::string key = "\n  max_seconds: ";
  const size_t at = run.configYaml.find(key);
  if (at == std::string::npos) return 0.0;
  const size_t from = at + key.size();
  const size_t end = run.configYaml.find('\n', from);
  const std::string text = run.configYaml.substr(from, end == std::string::npos ? end : end - from);
  char* stop = nullptr;
  const double seconds = std::strtod(text.c_str(), &stop);
  return stop != text.c_str() && std::isfinite(seconds) && seconds > 0.0 ? seconds : 0.0;
}

std::vector<TrialProgress> experimentProgress(const std::vector<TrialRecord>& trials,
                                              const std::vector<RunRecord>& runs,
                                              const std::function<bool(int64_t)>& trainedNow,
                                              bool queueRunning) {
  std::map<int64_t, const RunRecord*> byId;
  for (const RunRecord& run : runs) byId[run.id] = &run;
  std::vector<TrialProgress> rows;
  for (const TrialRecord& trial : trials) {
    TrialProgress row;
    row.trial = trial;
    const auto run = byId.find(trial.runId);
    if (trial.runId > 0 && run != byId.end()) {
      row.run = *run->second;
      row.unit = recordedLossUnit(row.run->configYaml);
    }
    const bool running = trial.status == TrialStatus::Running;
    const bool untrained = running && trainedNow && !trainedNow(trial.trial);
    row.interrupted = untrained && !queueRunning;
    row.starting = untrained && queueRunning;
    row.targetSteps = trial.budget > 0 ? trial.budget : row.run ? recordedMaxSteps(*row.run) : 0;
    const bool training = running && !untrained && row.run && row.run->steps > 0;
    if (training && row.targetSteps > row.run->steps && row.run->durationSeconds > 0.0) {
      // A time limit (training.max_seconds) ends the run first when the steps would not.
      row.etaSeconds =
          runEtaSeconds(static_cast<double>(row.run->steps), static_cast<double>(row.targetSteps),
                        row.run->durationSeconds, recordedMaxSeconds(*row.run));
    }
    row.finishing = training && row.targetSteps > 0 && row.run->steps >= row.targetSteps;
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<ConfigurationResult> experimentResults(const ExperimentPlan& plan,
                                                   const std::vector<TrialRecord>& trials,
                                                   const std::vector<RunRecord>& runs) {
  std::map<int64_t, const RunRecord*> byId;
  for (const RunRecord& run : runs) byId[run.id] = &run;
  std::map<int64_t, const TrialRecord*> byTrial;
  for (const TrialRecord& trial : trials) byTrial[trial.trial] = &trial;
  std::vector<ConfigurationResult> results;
  for (int64_t c = 0; c < plan.configurations; ++c) {
    ConfigurationResult result;
    result.configuration = c;
    std::vector<double> valid;
    std::vector<double> test;
    std::vector<double> wrong;  // a long-range problem's test error rate
    int64_t running = 0;
    int64_t failed = 0;
    int64_t changed = 0;
    int64_t deleted = 0;  // trials whose run is gone from the store
    std::string failure;
    std::string cut;
    for (const TrialPlan& planned : plan.trials) {
      if (planned.configuration != c) continue;
      if (result.seeds == 0) {
        result.settings = planned.settings;
        result.label = planned.label;
        result.parameters = planned.parameters;
        result.unit = lossUnitOf(planned.project);
        result.scoresSequences = isLongRangeProblem(planned.project.data.synthetic);
      }
      ++result.seeds;
      const auto record = byTrial.find(planned.index);
      if (record == byTrial.end()) continue;
      const TrialRecord& trial = *record->second;
      // Trained under an earlier version of the experiment file: not this configuration's.
      if (trial.fingerprint != planned.fingerprint) {
        ++changed;
        continue;
      }
      const auto run = byId.find(trial.runId);
      // Done, its run deleted since (by hand, by another tool): no result, not done.
      if ((trial.status == TrialStatus::Done || trial.status == TrialStatus::Cut) &&
          (trial.runId <= 0 || run == byId.end())) {
        ++deleted;
        continue;
      }
      if (trial.status == TrialStatus::Done) ++result.done;
      if (trial.status == TrialStatus::Running) ++running;
      if (trial.status == TrialStatus::Failed) {
        ++failed;
        failure = trial.reason;
      }
      if (trial.status == TrialStatus::Cut) cut = trial.reason;
      if (trial.runId <= 0 || run == byId.end()) continue;
      result.runIds.push_back(trial.runId);
      // Figures of trials that are done only: a running trial's best so far is not a result.
      if (trial.status != TrialStatus::Done && trial.status != TrialStatus::Cut) continue;
      if (run->second->bestValid && std::isfinite(*run->second->bestValid)) {
        valid.push_back(inLossUnit(*run->second->bestValid, result.unit));
      }
      if (run->second->testResult && std::isfinite(*run->second->testResult)) {
        test.push_back(inLossUnit(*run->second->testResult, result.unit));
      }
      const std::optional<double> errorRate = run->second->testErrorRate;
      if (result.scoresSequences && errorRate && std::isfinite(*errorRate)) {
        wrong.push_back(*errorRate);
        if (*errorRate < LongRangeProblem::kSolvedBelow) ++result.solved;
      }
    }
    result.validLoss = summarise(valid);
    result.testLoss = summarise(test);
    result.testErrorRate = summarise(wrong);
    if (!cut.empty()) {
      result.state = cut;
    } else if (failed > 0) {
      result.state = "failed: " + failure;
    } else if (result.done == result.seeds) {
      result.state = "done";
    } else if (running > 0 || result.done > 0 || deleted > 0) {
      result.state = std::to_string(result.done) + " of " + std::to_string(result.seeds) + " done";
      if (deleted > 0) result.state += " (" + std::to_string(deleted) + " run(s) deleted)";
    } else if (changed > 0) {
      result.state = "ran before the file changed; `experiment run --replan` trains it afresh";
    } else {
      result.state = "queued";
    }
    for (const ExperimentReference& reference : plan.experiment.references) {
      if (settingsMatch(reference.when, result.settings)) {
        result.references.push_back({reference.metric, reference.value, reference.source});
      }
    }
    results.push_back(std::move(result));
  }
  return results;
}

std::optional<SeedSummary> measuredFigure(const ConfigurationResult& result,
                                          const std::string& metric) {
  if (metric == "test_error_rate") {
    if (result.testErrorRate.count == 0) return std::nullopt;
    return result.testErrorRate;
  }
  const bool test = metric.rfind("test_", 0) == 0;
  SeedSummary figure = test ? result.testLoss : result.validLoss;
  if (figure.count == 0) return std::nullopt;
  const bool perplexityAsked = metric.find("perplexity") != std::string::npos;
  // A squared error has no perplexity; its "bpc" metrics read the squared error itself.
  if (result.unit == LossUnit::SquaredError) {
    return perplexityAsked ? std::nullopt : std::optional<SeedSummary>(figure);
  }
  if (!perplexityAsked) return figure;
  // Perplexity 2^bits: the mean of the seeds' perplexities, its spread by the same rule.
  SeedSummary perplexity = figure;
  perplexity.mean = std::pow(2.0, figure.mean);
  perplexity.stddev = perplexity.mean * std::log(2.0) * figure.stddev;
  for (double& value : perplexity.values) value = std::pow(2.0, value);
  return perplexity;
}

std::string resultsText(const ExperimentPlan& plan, const std::vector<ConfigurationResult>& rows) {
  const std::vector<LossUnit> units = lossUnitsOf(rows);
  const bool mixed = lossUnitsMix(units);
  const bool sequences = anyScoresSequences(rows);
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header{"#"};
  for (const ExperimentAxis& axis : plan.experiment.axes) header.push_back(axis.label);
  header.insert(header.end(), {"parameters", "seeds", lossColumnTitle("valid", units),
                               lossColumnTitle("test", units)});
  if (sequences) header.insert(header.end(), {"test wrong", "solved"});
  header.insert(header.end(), {"reference", "state"});
  cells.push_back(header);
  for (const ConfigurationResult& row : rows) {
    std::vector<std::string> line{std::to_string(row.configuration + 1)};
    for (const AxisSetting& setting : row.settings) line.push_back(setting.shown);
    line.push_back(groupedInteger(row.parameters));
    line.push_back(std::to_string(row.done) + "/" + std::to_string(row.seeds));
    line.push_back(lossCellText(meanStd(row.validLoss), row.unit, mixed));
    line.push_back(lossCellText(meanStd(row.testLoss), row.unit, mixed));
    if (sequences) {
      line.push_back(percentMeanStd(row.testErrorRate));
      line.push_back(solvedText(row));
    }
    std::string references;
    for (const ReferenceFigure& reference : row.references) {
      references += (references.empty() ? "" : "; ") + reference.metric + " " +
                    formatDouble(reference.value) + " (" + reference.source + ")";
    }
    line.push_back(references.empty() ? "-" : references);
    line.push_back(row.state);
    cells.push_back(std::move(line));
  }
  return "experiment '" + plan.experiment.name + "' (" +
         searchKindName(plan.experiment.search.kind) + ", " + std::to_string(plan.trials.size()) +
         " trials): " + unitsText(units) + ", mean ± std over seeds" +
         (sequences ? "; test wrong: the share of test sequences wrong, solved below " +
                          fixed(100.0 * LongRangeProblem::kSolvedBelow, 0) + "%"
                    : "") +
         "\n" + table(cells) + claimsText(claimResults(plan, rows));
}

std::string resultsCsv(const ExperimentPlan& plan, const std::vector<ConfigurationResult>& rows) {
  std::ostringstream out;
  out << "configuration";
  for (const ExperimentAxis& axis : plan.experiment.axes) out << "," << csvField(axis.key);
  // Columns named by their unit: bpc, sq_error, or loss where the configurations' units mix
  // (each line then names its own in loss_unit, the last column).
  const std::vector<LossUnit> units = lossUnitsOf(rows);
  const bool mixed = lossUnitsMix(units);
  const std::string unit = mixed ? "loss" : allSquaredErrors(units) ? "sq_error" : "bpc";
  out << ",parameters,seeds,done";
  for (const char* side : {"valid", "test"}) {
    out << "," << side << "_" << unit << "_mean," << side << "_" << unit << "_std";
  }
  const bool sequences = anyScoresSequences(rows);
  if (sequences) out << ",test_error_rate_mean,test_error_rate_std,solved";
  out << ",reference_metric,reference_value,reference_source,state,runs"
      << (mixed ? ",loss_unit" : "") << "\n";
  for (const ConfigurationResult& row : rows) {
    const auto optional = [](const SeedSummary& s, bool mean) -> std::optional<double> {
      if (s.count == 0) return std::nullopt;
      return mean ? s.mean : s.stddev;
    };
    std::string runs;
    for (const int64_t id : row.runIds) runs += (runs.empty() ? "" : " ") + std::to_string(id);
    const size_t lines = std::max<size_t>(1, row.references.size());
    // One line per reference, so that each figure keeps its source.
    for (size_t r = 0; r < lines; ++r) {
      out << row.configuration + 1;
      for (const AxisSetting& setting : row.settings) out << "," << csvField(setting.value);
      out << "," << row.parameters << "," << row.seeds << "," << row.done << ","
          << csvNumber(optional(row.validLoss, true)) << ","
          << csvNumber(optional(row.validLoss, false)) << ","
          << csvNumber(optional(row.testLoss, true)) << ","
          << csvNumber(optional(row.testLoss, false));
      if (sequences) {
        out << "," << csvNumber(optional(row.testErrorRate, true)) << ","
            << csvNumber(optional(row.testErrorRate, false)) << ","
            << (row.testErrorRate.count > 0 ? std::to_string(row.solved) : "");
      }
      if (r < row.references.size()) {
        const ReferenceFigure& reference = row.references[r];
        out << "," << csvField(reference.metric) << "," << formatDouble(reference.value) << ","
            << csvField(reference.source);
      } else {
        out << ",,,";
      }
      out << "," << csvField(row.state) << "," << csvField(runs);
      if (mixed) out << "," << (row.unit == LossUnit::SquaredError ? "sq_error" : "bpc");
      out << "\n";
    }
  }
  return out.str();
}

std::string resultsJson(const ExperimentPlan& plan, const std::vector<ConfigurationResult>& rows) {
  std::ostringstream out;
  const auto summary = [](const SeedSummary& s) {
    if (s.count == 0) return std::string("null");
    return "{\"mean\": " + jsonNumber(s.mean) + ", \"std\": " + jsonNumber(s.stddev) +
           ", \"seeds\": " + std::to_string(s.count) + "}";
  };
  // valid_bpc, or valid_squared_error for a real-valued output.
  const auto unit = [](const ConfigurationResult& row) {
    return row.unit == LossUnit::SquaredError ? "squared_error" : "bpc";
  };
  out << "{\"experiment\": " << jsonString(plan.experiment.name)
      << ", \"search\": " << jsonString(searchKindName(plan.experiment.search.kind))
      << ", \"configurations\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const ConfigurationResult& row = rows[i];
    out << (i > 0 ? ",\n  " : "\n  ") << "{\"configuration\": " << row.configuration + 1
        << ", \"settings\": {";
    for (size_t s = 0; s < row.settings.size(); ++s) {
      out << (s > 0 ? ", " : "") << jsonString(row.settings[s].key) << ": "
          << jsonString(row.settings[s].value);
    }
    out << "}, \"label\": " << jsonString(row.label) << ", \"parameters\": " << row.parameters
        << ", \"seeds\": " << row.seeds << ", \"done\": " << row.done << ", \"valid_" << unit(row)
        << "\": " << summary(row.validLoss) << ", \"test_" << unit(row)
        << "\": " << summary(row.testLoss);
    if (row.scoresSequences) {
      out << ", \"test_error_rate\": " << summary(row.testErrorRate)
          << ", \"solved\": " << row.solved;
    }
    out << ", \"references\": [";
    for (size_t r = 0; r < row.references.size(); ++r) {
      const ReferenceFigure& reference = row.references[r];
      const auto measured = measuredFigure(row, reference.metric);
      out << (r > 0 ? ", " : "") << "{\"metric\": " << jsonString(reference.metric)
          << ", \"value\": " << jsonNumber(reference.value)
          << ", \"source\": " << jsonString(reference.source)
          << ", \"measured\": " << (measured ? jsonNumber(measured->mean) : "null") << "}";
    }
    out << "], \"state\": " << jsonString(row.state) << ", \"runs\": [";
    for (size_t r = 0; r < row.runIds.size(); ++r) out << (r > 0 ? ", " : "") << row.runIds[r];
    out << "]}";
  }
  out << "\n], \"claims\": " << claimsJson(claimResults(plan, rows)) << "}\n";
  return out.str();
}

std::string progressText(const std::vector<TrialProgress>& rows) {
  // A Slurm column only where there are Slurm jobs: the local table stays as it was.
  bool jobs = false;
  // The valid column's unit: those of the trials that have a run.
  std::vector<LossUnit> units;
  for (const TrialProgress& row : rows) {
    jobs = jobs || !row.job.empty();
    if (row.run) units.push_back(row.unit);
  }
  const bool mixed = lossUnitsMix(units);
  std::vector<std::vector<std::string>> cells{{"trial", "setting", "seed", "status", "run", "step",
                                               "ETA", lossColumnTitle("valid", units), "note"}};
  if (jobs) cells.front().push_back("Slurm");
  for (const TrialProgress& row : rows) {
    const TrialRecord& t = row.trial;
    std::string step = row.run ? std::to_string(row.run->steps) : "-";
    if (row.run && row.targetSteps > 0) step += "/" + std::to_string(row.targetSteps);
    cells.push_back(
        {"#" + std::to_string(t.trial + 1), t.label, std::to_string(t.seed), row.statusText(),
         t.runId > 0 ? std::to_string(t.runId) : "-", step, row.etaText(),
         row.run && row.run->bestValid
             ? lossCellText(fixed(inLossUnit(*row.run->bestValid, row.unit)), row.unit, mixed)
             : "-",
         // A done trial's run may have a word of its own (no better than a guess).
         t.reason.empty() && t.status == TrialStatus::Done && row.run ? row.run->reason
                                                                      : t.reason});
    if (jobs) cells.back().push_back(row.job.empty() ? "-" : row.job);
  }
  return table(cells);
}

std::string planText(const ExperimentPlan& plan) {
  const Experiment& e = plan.experiment;
  std::ostringstream out;
  out << "experiment '" << e.name << "': " << searchKindName(e.search.kind) << " search, "
      << plan.configurations << " configuration" << (plan.configurations == 1 ? "" : "s") << " x "
      << e.seeds.size() << " seed" << (e.seeds.size() == 1 ? "" : "s") << " = "
      << plan.trials.size() << " trial" << (plan.trials.size() == 1 ? "" : "s") << ", base "
      << e.baseFile << "\n";
  if (e.search.kind == SearchKind::Halving) {
    out << "successive halving: rungs at steps";
    for (const int64_t rung : e.search.rungs) out << " " << rung;
    out << ", keeping " << fixed(100.0 * e.search.keep, 0) << "% at each\n";
  }
  std::vector<std::vector<std::string>> cells{{"trial", "setting", "seed", "parameters", "steps"}};
  for (const TrialPlan& trial : plan.trials) {
    const TrainingConfig& training = trial.project.training;
    cells.push_back({"#" + std::to_string(trial.index + 1), trial.label, std::to_string(trial.seed),
                     trial.parameters > 0 ? groupedInteger(trial.parameters) : "?",
                     training.maxSteps > 0 ? std::to_string(training.maxSteps)
                                           : std::to_string(training.epochs) + " epochs"});
  }
  out << table(cells);
  return out.str();
}

}  // namespace mrnn::engine
