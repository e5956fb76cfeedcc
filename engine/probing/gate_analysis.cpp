#include "engine/probing/gate_analysis.h"

#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>

#include "engine/analysis/model_device.h"
#include "engine/models/eval_mode_guard.h"
#include "engine/models/language_model.h"
#include "engine/probing/half_float.h"
#include "engine/runtime/job_context.h"

namespace mrnn::engine {
namespace {

// "layer2/major.f" -> layer 2, probe "major.f".
void splitName(const std::string& name, int64_t& layer, std::string& probe) {
  const auto slash = name.find('/');
  probe = slash == std::string::npos ? name : name.substr(slash + 1);
  layer = 0;
  if (name.rfind("layer", 0) == 0 && slash != std::string::npos) {
    try {
      layer = std::stoll(name.substr(5, slash - 5));
    } catch (const std::exception&) {
      layer = 0;
    }
  }
}

}  // namespace

GateReport analyzeGates(LanguageModel& model, const Vocabulary& vocabulary, const std::string& text,
                        const GateOptions& options, JobContext* job) {
  const std::vector<int64_t> ids = vocabulary.encode(text);
  if (ids.empty()) throw std::invalid_argument("the text to record gates over is empty");
  if (options.window <= 0) throw std::invalid_argument("the window must be positive");

  torch::NoGradGuard noGrad;
  EvalModeGuard evalMode(model);
  const auto device = modelDevice(model);
  const auto all = torch::tensor(ids, torch::kLong).to(device);
  const auto total = static_cast<int64_t>(ids.size());

  ProbeRecorder recorder;
  ModelState state = model.initialState(1);
  // Windows carry the state, so the trace is that of one pass over the whole text; the
  // recorder appends each window's steps.
  for (int64_t begin = 0; begin < total; begin += options.window) {
    reportTo(job, 0.9 * static_cast<double>(begin) / static_cast<double>(total), "recording");
    const int64_t end = std::min(total, begin + options.window);
    const auto tokens = all.slice(0, begin, end).unsqueeze(1);  // [T, 1]
    model.forward(tokens, state, &recorder);
  }

  GateReport report;
  for (const int64_t id : ids) report.symbols.push_back(vocabulary.symbol(id));
  const auto& names = recorder.names();
  for (size_t n = 0; n < names.size(); ++n) {
    reportTo(job, 0.9 + 0.1 * static_cast<double>(n) / static_cast<double>(names.size()),
             "statistics");
    ProbeTrace trace;
    trace.name = names[n];
    splitName(trace.name, trace.layer, trace.probe);
    trace.isGate = isGateProbe(trace.probe);
    const auto stacked = recorder.stacked(trace.name);  // [T, 1, units...]
    const auto flat = stacked.reshape({stacked.size(0), -1}).to(torch::kCPU, torch::kFloat);
    const auto contiguous = flat.contiguous();
    trace.steps = contiguous.size(0);
    trace.units = contiguous.size(1);
    const float* data = contiguous.data_ptr<float>();
    std::vector<float> values(data, data + contiguous.numel());
    report.statistics.push_back(gateStatistics(trace.name, trace.isGate, values));
    if (options.float16) {
      trace.half = toHalf(values);
    } else {
      trace.values = std::move(values);
    }
    report.traces.push_back(std::move(trace));
  }
  reportTo(job, 1.0, "done");
  return report;
}

}  // namespace mrnn::engine
