#include "runs_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/config/loss_unit.h"
#include "engine/config/project_store_paths.h"
#include "engine/io/atomic_file.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/text_format.h"
#include "engine/training/run_recovery.h"
#include "output_option.h"

namespace mrnn::app {
namespace {

constexpr const char* kRunsUsage =
    "usage:\n"
    "  mrnn runs list <project-folder>\n"
    "  mrnn runs show <project-folder> <run-id>\n"
    "  mrnn runs rename <project-folder> <run-id> <name>\n"
    "  mrnn runs note <project-folder> <run-id> <text>   (\"\" removes the note)\n"
    "  mrnn runs export <project-folder> [<run-id>] --format csv|json [--output FILE]\n"
    "  mrnn runs recover <project-folder> [--set-aside]\n";

int usageError(std::ostream& err, const std::string& problem) {
  if (!problem.empty()) err << "mrnn runs: " << problem << "\n";
  err << kRunsUsage;
  return 2;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// A stored figure (bits) in the run's own unit (engine/config/loss_unit.h).
std::string loss(const std::optional<double>& value, engine::LossUnit unit) {
  return value ? fixed(engine::inLossUnit(*value, unit), 4) : "-";
}

std::string shortNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// h:mm:ss, the way a researcher reads a training time.
std::string duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "-";
  const auto total = static_cast<int64_t>(std::llround(seconds));
  char text[64];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", static_cast<long long>(total / 3600),
                static_cast<long long>(total / 60 % 60), static_cast<long long>(total % 60));
  return text;
}

// Text from the database (names, notes, paths) as a terminal may print it: a name like
// $'\e]0;title\a' must not retitle or recolour the terminal.
std::string shown(const std::string& text) {
  return engine::terminalText(text);
}

// A field of `runs show`: its own line breaks kept (a reason or note may run to several).
std::string orDash(const std::string& text) {
  return text.empty() ? "-" : engine::terminalText(text, true);
}

// Columns padded to their widest cell, two spaces apart; numbers right-aligned.
void printTable(const std::vector<std::string>& header, const std::vector<bool>& rightAligned,
                const std::vector<std::vector<std::string>>& rows, const std::string& indent,
                std::ostream& out) {
  std::vector<size_t> widths(header.size());
  for (size_t c = 0; c < header.size(); ++c) widths[c] = header[c].size();
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  const auto printRow = [&](const std::vector<std::string>& row) {
    std::string line = indent;
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string padding(widths[c] - row[c].size(), ' ');
      line += rightAligned[c] ? padding + row[c] : row[c] + padding;
      if (c + 1 < row.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  };
  printRow(header);
  for (const auto& row : rows) printRow(row);
}

// A positive whole number, or nullopt.
std::optional<int64_t> parseRunId(const std::string& text) {
  try {
    size_t used = 0;
    const long long id = std::stoll(text, &used);
    if (used == text.size() && id > 0) return id;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

int listRuns(const std::vector<engine::RunRecord>& runs, const std::string& folder,
             std::ostream& out) {
  if (runs.empty()) {
    out << "no runs yet in " << folder << "\n";
    return 0;
  }
  std::vector<engine::LossUnit> units;
  for (const auto& run : runs) units.push_back(engine::recordedLossUnit(run.configYaml));
  const bool mixed = engine::lossUnitsMix(units);
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    const auto figure = [&](const std::optional<double>& value) {
      return engine::lossCellText(loss(value, units[i]), units[i], mixed);
    };
    rows.push_back({std::to_string(run.id), shown(run.name), shown(run.modelType),
                    engine::groupedInteger(run.parameters), engine::runStatusName(run.status),
                    std::to_string(run.steps), figure(run.bestValid), figure(run.testResult),
                    duration(run.durationSeconds)});
  }
  printTable({"id", "name", "model", "params", "status", "steps",
              engine::lossColumnTitle("best valid", units), engine::lossColumnTitle("test", units),
              "duration"},
             {true, false, false, true, false, true, true, true, true}, rows, "", out);
  return 0;
}

void printIndented(const std::string& text, std::ostream& out) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = shown(text.substr(start, end - start));
    out << (line.empty() ? "" : "  " + line) << "\n";
    start = end + 1;
  }
}

void showRun(const engine::RunCatalogue& catalogue, const engine::RunRecord& run,
             std::ostream& out) {
  const engine::RunStore& store = catalogue.store();
  out << "run " << run.id << ": " << shown(run.name) << "\n";
  const engine::LossUnit unit = engine::recordedLossUnit(run.configYaml);
  const auto writer = catalogue.writer(run.id);
  std::vector<std::pair<std::string, std::string>> fields = {
      {"model", orDash(run.modelType)},
      {"parameters", engine::groupedInteger(run.parameters)},
      {"status", engine::runStatusName(run.status)},
      {"reason", orDash(run.reason)},
      {"note", orDash(run.note)},
      {"started", orDash(run.startedAt)},
      {"ended", orDash(run.endedAt)},
      {"duration", duration(run.durationSeconds) + " (" + fixed(run.durationSeconds, 1) + " s)"},
      {"steps", std::to_string(run.steps)},
      {"best valid", engine::lossCellText(loss(run.bestValid, unit), unit, true)},
      {"test", engine::lossCellText(loss(run.testResult, unit), unit, true)},
  };
  if (writer) fields.insert(fields.begin() + 3, {"written by", shown(writer->describe())});
  for (const auto& [label, value] : fields) {
    out << "  " << label << std::string(12 - label.size(), ' ') << value << "\n";
  }

  const auto checkpoints = store.checkpoints(run.id);
  if (checkpoints.empty()) {
    out << "checkpoints: none\n";
  } else {
    out << "checkpoints:\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& checkpoint : checkpoints) {
      rows.push_back({shown(checkpoint.kind), std::to_string(checkpoint.step),
                      loss(checkpoint.validLoss, unit), shown(checkpoint.savedAt),
                      shown(checkpoint.path)});
    }
    printTable(
        {"kind", "step", "valid " + std::string(engine::lossUnitLabel(unit)), "saved at", "path"},
        {false, true, true, false, false}, rows, "  ", out);
  }

  const auto metrics = store.metricSummaries(run.id);
  if (metrics.empty()) {
    out << "metrics: none\n";
  } else {
    out << "metrics:\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& metric : metrics) {
      rows.push_back({shown(metric.name), std::to_string(metric.points),
                      std::to_string(metric.lastStep), shortNumber(metric.lastValue)});
    }
    printTable({"name", "points", "last step", "last value"}, {false, true, true, true}, rows, "  ",
               out);
  }

  if (run.configYaml.empty()) {
    out << "config: none\n";
  } else {
    out << "config:\n";
    printIndented(run.configYaml, out);
  }
}

int exportRuns(const CommandLine& args, const engine::RunCatalogue& catalogue,
               const std::string& folder, const std::optional<int64_t>& runId,
               const std::string& format, std::ostream& out, std::ostream& err) {
  const engine::RunStore& store = catalogue.store();
  std::string text;
  if (runId) {
    if (!store.run(*runId)) {
      err << "mrnn: no run " << *runId << " in " << folder << "\n";
      return 1;
    }
    text = format == "csv" ? store.exportMetricsCsv(*runId) : store.exportMetricsJson(*runId);
  } else {
    text = format == "csv" ? engine::RunStore::runsCsv(catalogue.runs())
                           : engine::RunStore::runsJson(catalogue.runs());
  }
  if (!args.has("output")) {
    out << text;
    return 0;
  }
  try {
    // Any table or export `runs export` writes is its own to replace.
    std::vector<std::string> alike = {engine::RunStore::runsCsv(catalogue.runs()),
                                      engine::RunStore::runsJson(catalogue.runs())};
    for (const auto& run : catalogue.runs()) {
      // Their first lines and keys are the same for every run.
      alike.push_back(store.exportMetricsCsv(run.id));
      alike.push_back(store.exportMetricsJson(run.id));
      break;
    }
    writeOutputOption(args, "output", text, out, {}, engine::projectStorePathsIn(folder), alike);
  } catch (const std::runtime_error& error) {
    err << "mrnn: " << error.what() << "\n";
    return 1;
  }
  return 0;
}

// `rename` and `note`: the researcher's words, written while the run may even be training.
int nameRun(const std::string& folder, int64_t runId, const std::string& verb,
            const std::string& text, std::ostream& out, std::ostream& err) {
  try {
    engine::RunCatalogue catalogue(folder, engine::RunCatalogue::Access::ReadWrite);
    if (!catalogue.run(runId)) {
      err << "mrnn: no run " << runId << " in " << folder << "\n";
      return 1;
    }
    if (verb == "rename") {
      catalogue.store().renameRun(runId, text);
      out << "run " << runId << " is now named '" << shown(text) << "'\n";
    } else {
      catalogue.store().setNote(runId, text);
      out << (text.empty() ? "run " + std::to_string(runId) + " has no note now\n"
                           : "noted run " + std::to_string(runId) + "\n");
    }
    return 0;
  } catch (const engine::StoreError& error) {
    err << "mrnn: " << error.what() << "\n";
    return 1;
  }
}

// Ids as "1, 2 and 5".
std::string idList(const std::vector<int64_t>& ids) {
  std::string text;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) text += i + 1 == ids.size() ? " and " : ", ";
    text += std::to_string(ids[i]);
  }
  return text;
}

// A word on runs whose checkpoints the database does not record, after a listing; nothing when
// there are none or the folder cannot be read.
void mentionUnrecorded(const std::string& folder, const std::vector<engine::RunRecord>& runs,
                       std::ostream& out) {
  try {
    const std::vector<int64_t> ids = engine::unrecordedRuns(folder, runs);
    if (ids.empty()) return;
    out << "checkpoints of run" << (ids.size() > 1 ? "s " : " ") << idList(ids)
        << " are in the project but not in its run database: mrnn runs recover " << folder
        << " records them\n";
  } catch (const std::exception&) {
    // The listing stands on its own.
  }
}

// `recover`: runs whose database was lost, back from their checkpoints.
int recoverRuns(const std::string& folder, bool setAside, std::ostream& out, std::ostream& err) {
  try {
    std::error_code ignored;
    if (setAside && std::filesystem::exists(engine::RunPaths::database(folder), ignored)) {
      try {
        engine::RunCatalogue probe(folder);
        probe.runs();
        out << "the run database reads: nothing set aside\n";
      } catch (const engine::StoreDamagedError&) {
        const std::string aside = engine::setAsideRunDatabase(folder);
        std::error_code error;
        const bool empty = std::filesystem::file_size(aside, error) == 0 && !error;
        out << "set the run database aside as " << aside
            << (empty ? " (it was empty)\n" : " (SQLite's own tools may mend it)\n");
      }
    }
    const engine::RunRecovery recovery = engine::recoverRuns(folder);
    for (const auto& run : recovery.recovered) {
      out << "recovered run " << run.id << " (" << shown(run.name) << ", step " << run.steps;
      if (run.bestValid) out << ", best validation " << fixed(*run.bestValid, 4) << " bits/symbol";
      if (run.metricPoints > 0) out << ", " << run.metricPoints << " metric points";
      out << ")\n";
      if (!run.unreadable.empty()) out << "  left unrecorded: " << run.unreadable << "\n";
    }
    for (const auto& skipped : recovery.skipped) err << "mrnn: skipped " << skipped << "\n";
    if (recovery.recovered.empty() && recovery.skipped.empty()) {
      out << "every run with checkpoints in " << folder << " is in its run database\n";
    } else if (!recovery.recovered.empty()) {
      out << "their curves and test figures were in the lost database: mrnn eval --run ID "
             "scores a run on test again, and each resumes from its latest checkpoint\n";
    }
    return recovery.skipped.empty() ? 0 : 1;
  } catch (const std::exception& error) {
    err << "mrnn: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace

int runRunsCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  if (words.size() < 2) return usageError(err, "missing subcommand");
  const std::string& verb = words[1];

  std::vector<std::string> knownOptions;
  size_t minWords = 3;
  size_t maxWords = 3;
  if (verb == "list") {
  } else if (verb == "show") {
    minWords = maxWords = 4;
  } else if (verb == "rename" || verb == "note") {
    minWords = maxWords = 5;
  } else if (verb == "export") {
    maxWords = 4;
    knownOptions = {"format", "output", "force"};
  } else if (verb == "recover") {
    knownOptions = {"set-aside"};
  } else {
    return usageError(err, "unknown subcommand '" + verb + "'");
  }
  const auto unknown = args.unknownOptions(knownOptions);
  if (!unknown.empty()) return usageError(err, "unknown option " + unknown.front());
  if (words.size() < minWords) return usageError(err, "missing arguments");
  if (words.size() > maxWords) return usageError(err, "unexpected argument '" + words.back() + "'");

  std::optional<int64_t> runId;
  if (words.size() >= 4) {
    runId = parseRunId(words[3]);
    if (!runId)
      return usageError(err, "run id must be a positive whole number, got '" + words[3] + "'");
  }
  const std::string format = args.value("format");
  if (verb == "export") {
    if (format != "csv" && format != "json") {
      return usageError(err, args.has("format") ? "unknown format '" + format + "'"
                                                : "--format csv|json is required");
    }
    if (args.has("output") && args.value("output").empty()) {
      return usageError(err, "--output needs a file name");
    }
  }

  const std::string folder = words[2];
  std::error_code ignored;
  if (!std::filesystem::is_directory(folder, ignored)) {
    err << "mrnn: no project folder '" << folder << "'\n";
    return 1;
  }
  if (verb == "recover") return recoverRuns(folder, args.has("set-aside"), out, err);
  // Never create a database just to report that there is none.
  if (!engine::RunCatalogue::exists(folder) &&
      !std::filesystem::exists(engine::RunPaths::database(folder), ignored)) {
    err << "mrnn: no runs yet in " << folder << " (no runs.sqlite)\n";
    mentionUnrecorded(folder, {}, err);
    return 1;
  }

  if (verb == "rename" || verb == "note") return nameRun(folder, *runId, verb, words[4], out, err);
  try {
    // Read-only: listing a project must work in a folder one may not write.
    const engine::RunCatalogue catalogue(folder, engine::RunCatalogue::Access::ReadOnly);
    if (verb == "list") {
      const auto runs = catalogue.runs();
      const int status = listRuns(runs, folder, out);
      mentionUnrecorded(folder, runs, out);
      return status;
    }
    if (verb == "show") {
      const auto run = catalogue.run(*runId);
      if (!run) {
        err << "mrnn: no run " << *runId << " in " << folder << "\n";
        return 1;
      }
      showRun(catalogue, *run, out);
      return 0;
    }
    return exportRuns(args, catalogue, folder, runId, format, out, err);
  } catch (const engine::StoreError& error) {
    err << "mrnn: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace mrnn::app
