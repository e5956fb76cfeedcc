#include "bench_command.h"

#include <torch/utils.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <thread>

#include "engine/bench/bench_model.h"
#include "engine/bench/bench_report.h"
#include "engine/bench/bench_suite.h"
#include "engine/bench/product_ceiling.h"
#include "engine/bench/throughput_probe.h"
#include "engine/config/device_name.h"
#include "engine/devices/compute_device.h"
#include "engine/io/output_file.h"
#include "engine/runtime/job_context.h"
#include "option_values.h"

namespace mrnn::app {
namespace {

constexpr const char* kBenchUsage =
    "usage: mrnn bench [--cells mlstm,lstm] [--measures train,eval,sample,score,curvature]\n"
    "                  [--hidden 512] [--emb 64] [--batch 32] [--bptt 100] [--vocab 128]\n"
    "                  [--steps 10] [--sample-length 2000] [--repeats 3] [--threads N|auto]\n"
    "                  [--device cpu|cuda|cuda:N] [--precision fp32,bf16]   (bf16: CUDA only)\n"
    "                  [--mogrifier-rounds 5] [--mogrifier-rank 40]   (0: full rank)\n"
    "                  [--peer PATH|none] [--python P] [--no-torch-lstm]\n"
    "                  [--markdown FILE [--force]]   (replaces only a report it wrote)\n"
    "                  [--contention]   (each subject also measured with one core kept busy)\n";

// Where the peer is when mrnn runs from a checkout beside the workplace's shared folder.
constexpr const char* kDefaultPeer = "../shared/bench/peer_mlstm.py";

// --markdown's rules: a file is the command's own when it starts as every report does;
// --force replaces any regular file.
engine::OutputRules markdownRules(const CommandLine& args) {
  engine::OutputRules rules;
  rules.ownOutput = [](const std::string& path) {
    return engine::startsAsBenchReport(engine::fileHead(path, 4096));
  };
  rules.replaceAny = args.has("force");
  return rules;
}

std::vector<std::string> commaList(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// --precision: a list of fp32 and bf16, fp32 when absent.
std::vector<engine::BenchPrecision> precisionsFrom(const CommandLine& args) {
  std::vector<engine::BenchPrecision> precisions;
  for (const auto& name : commaList(args.value("precision", "fp32"))) {
    const auto precision = engine::benchPrecisionFromName(name);
    if (!precision) throw UsageError("--precision lists fp32, bf16; not '" + name + "'");
    if (std::find(precisions.begin(), precisions.end(), *precision) == precisions.end()) {
      precisions.push_back(*precision);
    }
  }
  if (precisions.empty()) throw UsageError("--precision names fp32, bf16 or both");
  return precisions;
}

engine::BenchShape shapeFrom(const CommandLine& args) {
  engine::BenchShape s;
  s.hidden = positiveInteger(args, "hidden", s.hidden);
  s.embedding = positiveInteger(args, "emb", s.embedding);
  s.batch = positiveInteger(args, "batch", s.batch);
  s.bptt = positiveInteger(args, "bptt", s.bptt);
  s.vocab = positiveInteger(args, "vocab", s.vocab);
  s.steps = positiveInteger(args, "steps", s.steps);
  s.sampleLength = positiveInteger(args, "sample-length", s.sampleLength);
  // --threads 0 (what the suite passes on when none was asked for) keeps LibTorch's default;
  // auto follows the machine's load as training does.
  const std::string threads = args.value("threads", "");
  s.threads = threads == "0" ? 0
              : threads == "auto"
                  ? engine::kFollowLoad
                  : static_cast<int>(boundedInteger(
                        args, "threads", std::max(1u, std::thread::hardware_concurrency()), 1,
                        engine::kMaxThreads));
  s.device = deviceOption(args);
  s.mogrifierRounds =
      static_cast<int>(boundedInteger(args, "mogrifier-rounds", s.mogrifierRounds, 0, 32));
  s.mogrifierRank = boundedInteger(args, "mogrifier-rank", s.mogrifierRank, 0, INT32_MAX);
  // bf16 is autocast on CUDA: refused here, before anything is measured.
  for (const auto precision : precisionsFrom(args)) {
    if (precision == engine::BenchPrecision::Bf16 && !engine::namesCudaDevice(s.device)) {
      throw UsageError(engine::kBf16NeedsCuda);
    }
  }
  return s;
}

std::string selfPath() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw std::runtime_error("cannot find this program's path (/proc/self/exe)");
  return std::string(path, static_cast<size_t>(n));
}

int runProbe(const CommandLine& args, std::ostream& out) {
  if (args.value("probe") == "ceiling") {
    const auto shape = shapeFrom(args);
    if (shape.threads > 0) torch::set_num_threads(shape.threads);
    const auto device = engine::resolveComputeDevice(shape.device, "--device");
    if (device.is_cuda()) {
      // The GPU's own: float32 and the bfloat16 products bf16 autocast runs.
      const auto size = engine::kGpuCeilingProductSize;
      out << "device: " << engine::describeComputeDevice(device) << "\n"
          << "ceiling size=" << size << " device=" << shape.device
          << " gflops=" << engine::productCeilingGflops(size, 5, device, torch::kFloat32)
          << " gflops_bf16=" << engine::productCeilingGflops(size, 5, device, torch::kBFloat16)
          << "\n";
      return 0;
    }
    out << "ceiling size=" << engine::kCeilingProductSize << " threads=" << torch::get_num_threads()
        << " gflops=" << engine::productCeilingGflops() << "\n";
    return 0;
  }
  const auto measure = engine::benchMeasureFromName(args.value("probe"));
  if (!measure) throw UsageError("--probe is train, eval, sample, score, curvature or ceiling");
  auto shape = shapeFrom(args);
  shape.cell = args.value("cells", "mlstm");
  const auto precisions = precisionsFrom(args);
  if (precisions.size() != 1) throw UsageError("--probe measures at one --precision");
  shape.precision = precisions.front();
  const auto result = engine::runProbe(shape, *measure);
  out << "probe cell=" << shape.cell << " measure=" << engine::benchMeasureName(*measure)
      << " precision=" << engine::benchPrecisionName(shape.precision)
      << " params=" << result.parameters << " flops_per_symbol=" << result.flopsPerSymbol
      << " symbols_per_s=" << result.symbolsPerSecond;
  if (result.gpuMemoryBytes >= 0) out << " gpu_memory=" << result.gpuMemoryBytes;
  if (!result.recurrentDtype.empty()) out << " recurrent_dtype=" << result.recurrentDtype;
  out << "\n";
  return 0;
}

}  // namespace

int runBench(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const std::vector<std::string> known{"cells",          "measures",
                                       "hidden",         "emb",
                                       "batch",          "bptt",
                                       "vocab",          "steps",
                                       "sample-length",  "repeats",
                                       "threads",        "device",
                                       "precision",      "mogrifier-rounds",
                                       "mogrifier-rank", "peer",
                                       "python",         "no-torch-lstm",
                                       "markdown",       "probe",
                                       "contention",     "force"};
  const auto unknown = args.unknownOptions(known);
  if (!unknown.empty() || args.positional().size() != 1) {
    err << kBenchUsage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  if (args.has("probe")) return runProbe(args, out);
  // Before minutes of measuring, not after: a file the report may not replace.
  if (args.has("markdown")) engine::checkOutputPath(args.value("markdown"), markdownRules(args));

  engine::BenchSuiteOptions options;
  options.shape = shapeFrom(args);
  options.cells = commaList(args.value("cells", "mlstm,lstm"));
  if (options.cells.empty()) throw UsageError("--cells names at least one cell type");
  if (args.has("measures")) {
    options.measures.clear();
    for (const auto& name : commaList(args.value("measures"))) {
      const auto measure = engine::benchMeasureFromName(name);
      if (!measure) {
        throw UsageError("--measures lists train, eval, sample, score, curvature; not '" + name +
                         "'");
      }
      options.measures.push_back(*measure);
    }
  }
  options.precisions = precisionsFrom(args);
  // A Mogrifier rank its widths cannot take is a usage error now, not a failed probe later.
  if (std::find(options.cells.begin(), options.cells.end(), "mogrifier") != options.cells.end()) {
    engine::BenchShape mogrifier = options.shape;
    mogrifier.cell = "mogrifier";
    try {
      engine::benchModelConfig(mogrifier);
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("--mogrifier-rank: ") + error.what());
    }
  }
  // After the usage checks: a GPU this machine lacks is refused once, here, rather than by
  // every probe of every round. Asking starts no CUDA context, so each probe's GPU memory is
  // still its own.
  engine::resolveComputeDevice(options.shape.device, "--device");
  options.repeats =
      static_cast<int>(boundedInteger(args, "repeats", options.repeats, 1, kMaxBenchRepeats));
  options.torchLstm = !args.has("no-torch-lstm");
  options.contention = args.has("contention");
  options.python = args.value("python", options.python);
  options.self = selfPath();
  const std::string peer = args.value("peer", "");
  if (peer == "none") {
    options.peer.clear();
  } else if (!peer.empty()) {
    options.peer = peer;  // runBenchSuite refuses it, by name, when it is missing
  } else if (access(kDefaultPeer, R_OK) == 0) {
    options.peer = kDefaultPeer;
  } else {
    err << "mrnn bench: no peer at " << kDefaultPeer
        << "; measuring without it (--peer PATH names it)\n";
  }

  std::ostringstream command;
  command << "mrnn bench";
  // Every option that changes what is measured, so the printed command reproduces the run
  // (--python too: on a GPU machine the peer's torch is often another interpreter's).
  for (const char* key : {"device", "precision", "cells", "measures", "hidden", "emb", "batch",
                          "bptt", "vocab", "steps", "sample-length", "mogrifier-rounds",
                          "mogrifier-rank", "repeats", "threads", "peer", "python"}) {
    if (args.has(key)) command << " --" << key << " " << args.value(key);
  }
  if (args.has("no-torch-lstm")) command << " --no-torch-lstm";
  if (args.has("contention")) command << " --contention";

  engine::JobContext job(
      [&err](const engine::JobProgress& progress) {
        err << "mrnn bench: " << progress.phase << "\n";
      },
      engine::StopToken::never());
  const auto report = engine::runBenchSuite(options, &job);
  const std::string text = engine::formatBenchReport(report, command.str());
  out << text;
  if (args.has("markdown"))
    engine::writeOutputFile(args.value("markdown"), text, markdownRules(args));
  return 0;
}

}  // namespace mrnn::app
