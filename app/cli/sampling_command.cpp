#include "sampling_command.h"

#include "engine/store/text_format.h"

#include <torch/torch.h>

#include <cstdio>
#include <iomanip>
#include <ostream>
#include <thread>

#include "analysis_device.h"
#include "command_threads.h"
#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/models/language_model.h"
#include "engine/runtime/machine_resources.h"
#include "engine/sampling/sampler.h"
#include "option_values.h"

namespace mrnn::app {
namespace {

const char* const kSamplingUsage =
    "usage: mrnn sample <project.yaml> [--run ID | --checkpoint PATH] [--prime TEXT]\n"
    "                   [--length N] [--temperature T] [--top-k K] [--top-p P] [--greedy]\n"
    "                   [--beam N] [--stop 'S1|S2'] [--completions N] [--seed S]\n"
    "                   [--clamp LAYER:UNIT:VALUE[,...]] [--alternatives N] [--threads N]\n"
    "                   [--json] [--device cpu|cuda|cuda:N]\n"
    "  --clamp counts layers from 1 and units from 0; '\\n' in --prime and --stop is a line "
    "break\n";

// "\n" typed on a command line means a line break.
std::string unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::vector<engine::UnitClamp> parseClamps(const std::string& text) {
  std::vector<engine::UnitClamp> clamps;
  for (const auto& item : split(text, ',')) {
    const auto fields = split(item, ':');
    try {
      if (fields.size() == 3) {
        size_t a = 0, b = 0, c = 0;
        const long long layer = std::stoll(fields[0], &a);
        const long long unit = std::stoll(fields[1], &b);
        const double value = std::stod(fields[2], &c);
        if (a == fields[0].size() && b == fields[1].size() && c == fields[2].size() && layer >= 1 &&
            unit >= 0) {
          clamps.push_back({static_cast<size_t>(layer - 1), unit, value});
          continue;
        }
      }
    } catch (const std::exception&) {
    }
    throw std::invalid_argument(
        "--clamp expects LAYER:UNIT:VALUE (layer from 1, unit from 0), "
        "got '" +
        item + "'");
  }
  return clamps;
}

engine::SamplingOptions readOptions(const CommandLine& args) {
  engine::SamplingOptions o;
  o.prime = unescape(args.value("prime"));
  o.maxLength = positiveInteger(args, "length", o.maxLength);
  o.temperature = numberOption(args, "temperature", o.temperature, engine::kMinTemperature,
                               engine::kMaxTemperature);
  o.topK = positiveInteger(args, "top-k", 0);
  o.topP = numberOption(args, "top-p", o.topP);
  o.greedy = args.has("greedy");
  o.beamWidth = positiveInteger(args, "beam", 0);
  if (args.has("stop")) o.stopStrings = split(unescape(args.value("stop")), '|');
  o.completions = positiveInteger(args, "completions", o.completions);
  o.seed = static_cast<uint64_t>(positiveInteger(args, "seed", static_cast<int64_t>(o.seed)));
  if (args.has("alternatives")) {
    o.alternatives =
        args.value("alternatives") == "0" ? 0 : positiveInteger(args, "alternatives", 5);
  }
  if (args.has("clamp")) o.clamps = parseClamps(args.value("clamp"));
  return o;
}

void printJson(std::ostream& out, const std::string& checkpoint,
               const engine::SamplingOptions& options,
               const std::vector<engine::Completion>& completions) {
  out << std::setprecision(8) << "{\n  \"checkpoint\": " << engine::jsonString(checkpoint)
      << ",\n  \"prime\": " << engine::jsonString(options.prime)
      << ",\n  \"seed\": " << options.seed << ",\n  \"completions\": [\n";
  for (size_t c = 0; c < completions.size(); ++c) {
    const auto& completion = completions[c];
    out << "    {\"text\": " << engine::jsonString(completion.text)
        << ", \"log_probability\": " << completion.logProbability
        << ", \"stop_reason\": " << engine::jsonString(completion.stopReason)
        << ",\n     \"symbols\": [\n";
    for (size_t i = 0; i < completion.symbols.size(); ++i) {
      const auto& symbol = completion.symbols[i];
      out << "       {\"id\": " << symbol.id << ", \"text\": " << engine::jsonString(symbol.text)
          << ", \"probability\": " << symbol.probability << ", \"alternatives\": [";
      for (size_t a = 0; a < symbol.alternatives.size(); ++a) {
        const auto& alternative = symbol.alternatives[a];
        out << (a ? ", " : "") << "{\"id\": " << alternative.id
            << ", \"symbol\": " << engine::jsonString(alternative.symbol)
            << ", \"probability\": " << alternative.probability << "}";
      }
      out << "]}" << (i + 1 < completion.symbols.size() ? "," : "") << "\n";
    }
    out << "     ]}" << (c + 1 < completions.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

}  // namespace

int runSampleCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto unknown = args.unknownOptions(
      {"run", "checkpoint", "prime", "length", "temperature", "top-k", "top-p", "greedy", "beam",
       "stop", "completions", "seed", "clamp", "alternatives", "threads", "json", "device"});
  if (!unknown.empty() || args.positional().size() != 2) {
    err << kSamplingUsage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  engine::SamplingOptions options;
  int64_t runId = 0, threads = 0;
  try {
    options = readOptions(args);
    runId = positiveInteger(args, "run", 0);
    threads = threadsOption(args);
    deviceOption(args);  // its form; whether this machine has it is asked below
  } catch (const std::invalid_argument& error) {
    err << "mrnn: " << error.what() << "\n";
    return 2;
  }
  // Load errors (missing runs, checkpoints, bad YAML) and a device this machine lacks reach
  // main(), which prints them.
  const torch::Device device = analysisDevice(args);
  engine::LoadedModel loaded =
      engine::loadModelForAnalysis(args.positional()[1], runId, args.value("checkpoint"), device);
  if (threads == 0) threads = loaded.project.training.threads;
  CommandThreads commandThreads(threads, "sampling", err);
  const bool asJson = args.has("json");
  if (!asJson && options.beamWidth == 0) {
    // Printed as it comes and not kept: any --length runs in bounded memory.
    options.keepSymbols = false;
    options.alternatives = 0;
  } else {
    // JSON and beam search keep every symbol (with its alternatives) until the end.
    engine::requireMemory(engine::keptSymbolsBytes(options),
                          "--length " + std::to_string(options.maxLength) +
                              (asJson ? " with --json" : " with --beam") +
                              " keeps every symbol until the end and",
                          asJson ? "Leave out --json to stream the text, or ask for fewer symbols"
                                 : "Ask for fewer symbols or a narrower beam");
  }
  engine::Sampler sampler(*loaded.model, loaded.vocabulary);
  try {
    sampler.check(options);
    sampler.primeIds(options.prime);
  } catch (const std::invalid_argument& error) {
    err << "mrnn: " << error.what() << "\n";
    return options.prime.empty() ? 2 : 1;
  }
  std::vector<engine::Completion> completions;
  try {
    if (asJson) {
      completions = sampler.generate(options, {}, commandThreads.job());
    } else {
      // Beam search streams its winners when done; sampling streams as it goes.
      size_t current = 0;
      out << options.prime;
      completions = sampler.generate(
          options,
          [&](size_t c, const engine::GeneratedSymbol& s) {
            if (c != current) {
              out << "\n\n" << options.prime;
              current = c;
            }
            out << s.text << std::flush;
          },
          commandThreads.job());
      out << "\n";
    }
  } catch (const std::invalid_argument& error) {  // e.g. a clamp outside the model
    err << "mrnn: " << error.what() << "\n";
    return 2;
  }
  if (asJson) printJson(out, loaded.checkpoint, options, completions);
  return 0;
}

}  // namespace mrnn::app
