// RunStore's text exports, kept apart from the database code: CSV and JSON by hand (the
// engine takes no JSON library for four small documents).
#include <locale>
#include <sstream>

#include "engine/store/run_store.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

std::string jsonTextOrNull(const std::string& text) {
  return text.empty() ? "null" : jsonString(text);
}

// Integers through the classic locale: a program-wide locale must not add digit grouping.
std::ostringstream classicStream() {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  return out;
}

}  // namespace

std::string RunStore::exportRunsCsv() const {
  return runsCsv(listRuns());
}

std::string RunStore::exportRunsJson() const {
  return runsJson(listRuns());
}

std::string RunStore::runsCsv(const std::vector<RunRecord>& runs) {
  auto out = classicStream();
  out << "id,name,model_type,parameters,status,started_at,ended_at,duration_s,steps,"
         "best_valid,test_result,reason,note\n";
  for (const auto& run : runs) {
    out << run.id << ',' << csvField(run.name) << ',' << csvField(run.modelType) << ','
        << run.parameters << ',' << runStatusName(run.status) << ',' << csvField(run.startedAt)
        << ',' << csvField(run.endedAt) << ',' << formatDouble(run.durationSeconds) << ','
        << run.steps << ',' << csvNumber(run.bestValid) << ',' << csvNumber(run.testResult) << ','
        << csvField(run.reason) << ',' << csvField(run.note) << '\n';
  }
  return out.str();
}

std::string RunStore::runsJson(const std::vector<RunRecord>& runs) {
  if (runs.empty()) return "[]\n";
  auto out = classicStream();
  out << "[\n";
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    out << "  {\"id\": " << run.id << ", \"name\": " << jsonString(run.name)
        << ", \"model_type\": " << jsonString(run.modelType)
        << ", \"parameters\": " << run.parameters
        << ", \"status\": " << jsonString(runStatusName(run.status))
        << ", \"started_at\": " << jsonTextOrNull(run.startedAt)
        << ", \"ended_at\": " << jsonTextOrNull(run.endedAt)
        << ", \"duration_s\": " << jsonNumber(run.durationSeconds) << ", \"steps\": " << run.steps
        << ", \"best_valid\": " << jsonNumber(run.bestValid)
        << ", \"test_result\": " << jsonNumber(run.testResult)
        << ", \"reason\": " << jsonString(run.reason) << ", \"note\": " << jsonString(run.note)
        << ", \"config_yaml\": " << jsonString(run.configYaml) << "}"
        << (i + 1 < runs.size() ? ",\n" : "\n");
  }
  out << "]\n";
  return out.str();
}

std::string RunStore::exportMetricsCsv(int64_t runId) const {
  auto out = classicStream();
  out << "name,step,epoch,wall_s,value\n";
  for (const auto& point : metrics(runId)) {
    out << csvField(point.name) << ',' << point.step << ',' << formatDouble(point.epoch) << ','
        << formatDouble(point.wallSeconds) << ',' << formatDouble(point.value) << '\n';
  }
  return out.str();
}

std::string RunStore::exportMetricsJson(int64_t runId) const {
  const auto points = metrics(runId);
  if (points.empty()) return "[]\n";
  auto out = classicStream();
  out << "[\n";
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& point = points[i];
    out << "  {\"name\": " << jsonString(point.name) << ", \"step\": " << point.step
        << ", \"epoch\": " << jsonNumber(point.epoch)
        << ", \"wall_s\": " << jsonNumber(point.wallSeconds)
        << ", \"value\": " << jsonNumber(point.value) << "}"
        << (i + 1 < points.size() ? ",\n" : "\n");
  }
  out << "]\n";
  return out.str();
}

}  // namespace mrnn::engine
