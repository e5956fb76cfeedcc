#include "engine/bench/bench_suite.h"

#include <sys/resource.h>
#include <torch/version.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "engine/bench/peer_kernels.h"
#include "engine/bench/throughput_probe.h"
#include "engine/config/cell_type.h"
#include "engine/config/device_name.h"
#include "engine/runtime/blas_kernels.h"
#include "engine/runtime/busy_core.h"
#include "engine/runtime/child_process.h"
#include "engine/runtime/job_context.h"

namespace mrnn::engine {

namespace {

// The last `count` non-empty lines of a child's output, joined, for error messages.
std::string lastLines(const std::string& text, size_t count) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(line);
  }
  if (lines.empty()) return "(no output)";
  std::string joined;
  for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) {
    joined += (joined.empty() ? "" : " | ") + lines[i];
  }
  return joined;
}

// The "key=value" words of a probe's or the peer's output, in order.
std::vector<std::pair<std::string, std::string>> probeFields(const std::string& output) {
  std::vector<std::pair<std::string, std::string>> fields;
  std::istringstream words(output);
  std::string word;
  while (words >> word) {
    const auto eq = word.find('=');
    if (eq != std::string::npos) fields.emplace_back(word.substr(0, eq), word.substr(eq + 1));
  }
  return fields;
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

// The shape's options, spelled the same by `mrnn bench` and the peer.
std::vector<std::string> shapeArguments(const BenchShape& s) {
  std::vector<std::string> argv;
  const std::pair<const char*, int64_t> sizes[] = {{"--hidden", s.hidden}, {"--emb", s.embedding},
                                                   {"--batch", s.batch},   {"--bptt", s.bptt},
                                                   {"--vocab", s.vocab},   {"--steps", s.steps}};
  for (const auto& [name, value] : sizes) argv.insert(argv.end(), {name, std::to_string(value)});
  argv.insert(argv.end(), {"--device", s.device});
  return argv;
}

std::vector<std::string> peerCommand(const BenchSuiteOptions& o, const std::string& kind,
                                     BenchMeasure measure) {
  std::vector<std::string> argv{o.python, o.peer, "--kind", kind};
  const auto shape = shapeArguments(o.shape);
  argv.insert(argv.end(), shape.begin(), shape.end());
  if (o.shape.threads > 0) argv.insert(argv.end(), {"--threads", std::to_string(o.shape.threads)});
  if (measure == BenchMeasure::Sample) {
    argv.insert(argv.end(), {"--sample", std::to_string(o.shape.sampleLength)});
  }
  return argv;
}

}  // namespace

std::vector<std::string> probeCommand(const std::string& self, const BenchShape& s,
                                      BenchMeasure measure) {
  std::vector<std::string> argv{self,      "bench", "--probe", benchMeasureName(measure),
                                "--cells", s.cell};
  const auto shape = shapeArguments(s);
  argv.insert(argv.end(), shape.begin(), shape.end());
  argv.insert(argv.end(),
              {"--sample-length", std::to_string(s.sampleLength), "--threads",
               s.threads == kFollowLoad ? std::string("auto") : std::to_string(s.threads),
               "--precision", benchPrecisionName(s.precision)});
  if (s.cell == "mogrifier") {
    argv.insert(argv.end(), {"--mogrifier-rounds", std::to_string(s.mogrifierRounds),
                             "--mogrifier-rank", std::to_string(s.mogrifierRank)});
  }
  return argv;
}

ProbeResult parseProbeOutput(const std::string& output) {
  ProbeResult result;
  bool rate = false;
  for (const auto& [key, value] : probeFields(output)) {
    try {
      if (key == "symbols_per_s" || key == "chars_per_s") {
        result.symbolsPerSecond = std::stod(value);
        rate = true;
      } else if (key == "flops_per_symbol") {
        result.flopsPerSymbol = std::stod(value);
      } else if (key == "params") {
        result.parameters = std::stoll(value);
      } else if (key == "gpu_memory") {
        result.gpuMemoryBytes = std::stoll(value);
      } else if (key == "recurrent_dtype") {
        result.recurrentDtype = value;
      }
    } catch (const std::exception&) {
      throw std::runtime_error("unreadable " + key + " '" + value + "' in: " + output);
    }
  }
  if (!rate)
    throw std::runtime_error("no symbols_per_s or chars_per_s in: " + lastLines(output, 3));
  return result;
}

BenchReport runBenchSuite(const BenchSuiteOptions& o, JobContext* job) {
  if (o.repeats < 1) throw std::invalid_argument("repeats must be at least 1");
  if (o.self.empty()) throw std::invalid_argument("no program to run engine probes with");
  if (o.precisions.empty()) throw std::invalid_argument("no precision to measure at");
  bool bf16 = false;
  for (const auto p : o.precisions) bf16 = bf16 || p == BenchPrecision::Bf16;
  if (bf16 && !namesCudaDevice(o.shape.device)) throw std::invalid_argument(kBf16NeedsCuda);
  BenchReport report;
  report.shape = o.shape;
  report.repeats = o.repeats;
  report.precisions = o.precisions;
  report.libtorch = TORCH_VERSION;
  report.blas = blasKernelDescription();
  report.machine = cpuModel() + ", " + std::to_string(std::thread::hardware_concurrency()) +
                   " CPUs, " +
                   (o.shape.threads > 0              ? std::to_string(o.shape.threads) + " threads"
                    : o.shape.threads == kFollowLoad ? std::string("threads following the load")
                                                     : std::string("default threads"));
  // One row per subject, precision and measure, in the order every round runs them. Names
  // carry the precision unless fp32 alone is measured.
  const bool labelled = o.precisions.size() > 1 || o.precisions.front() != BenchPrecision::Fp32;
  const auto addSubject = [&](const std::string& name, const std::string& cell, bool peer) {
    for (const auto precision : o.precisions) {
      if (peer && precision != BenchPrecision::Fp32) continue;  // the peer has no precision option
      for (auto measure : o.measures) {
        // The peer times training and sampling only; nothing but the engine has a curvature
        // product.
        if (peer && measure == BenchMeasure::Eval) continue;
        // Nothing but the engine has a curvature product or an exact one-stream score.
        if ((peer || cell == kTorchLstm) &&
            (measure == BenchMeasure::Curvature || measure == BenchMeasure::Score))
          continue;
        for (const bool busy : {false, true}) {
          if (busy && !o.contention) continue;
          BenchRow row;
          row.subject = benchSubjectName(name, precision, labelled);
          if (busy) row.subject += kBusySuffix;
          row.cell = cell;
          row.measure = measure;
          row.peer = peer;
          row.busy = busy;
          row.precision = precision;
          report.rows.push_back(row);
        }
      }
    }
  };
  bool lstmAsked = false;
  for (const auto& cell : o.cells) {
    if (!cellTypeFromName(cell)) {
      throw std::invalid_argument("unknown cell type '" + cell +
                                  "' (mrnn model describe lists them)");
    }
    lstmAsked = lstmAsked || cell == "lstm";
    addSubject("engine " + cell, cell, false);
  }
  if (o.torchLstm) addSubject("torch::nn::LSTM", kTorchLstm, false);
  if (!o.peer.empty()) {
    if (access(o.peer.c_str(), R_OK) != 0) {
      throw std::invalid_argument("peer script not found: " + o.peer +
                                  " (--peer PATH names it, --peer none leaves it out)");
    }
    // A Python without torch (Debian's python3-torch is not installed by default) leaves the
    // peer out with a note; everything else is still measured. `peer --help` imports what the
    // peer needs and exits, so any Python and any stand-in peer are checked the same way.
    const auto peerCheck = [&] {
      try {
        return runChildProcess({o.python, o.peer, "--help"});
      } catch (const std::runtime_error& error) {
        ChildOutcome cannot;
        cannot.exitCode = 127;
        cannot.err = error.what();
        return cannot;
      }
    }();
    if (peerCheck.exitCode == 0) {
      addSubject("peer mlstm", "mlstm", true);
      if (lstmAsked) addSubject("peer lstm", "lstm", true);
      if (bf16) {
        report.notes.push_back("the Python peer (" + o.peer +
                               ") has no precision option: it runs fp32 only, so the bf16 rows "
                               "have no peer row and no / peer");
      }
    } else {
      report.notes.push_back("the Python peer is left out: `" + o.python + " " + o.peer +
                             "` cannot start (" + lastLines(peerCheck.err + peerCheck.out, 1) +
                             "); it needs Debian's python3-torch: "
                             "`sudo apt-get install python3-torch`");
    }
  }
  // Thread counts and BLAS kernels pinned in every child, the peer's included
  // (peer_kernels.h); the peer's OpenBLAS also names the kernels it ran.
  const std::string engineCore = openBlasCoreName();
  std::vector<std::string> environment = sameKernelsEnvironment(engineCore);
  if (o.shape.threads > 0) {
    environment.push_back("OMP_NUM_THREADS=" + std::to_string(o.shape.threads));
  }
  std::vector<std::string> peerEnvironment = environment;
  peerEnvironment.push_back(peerKernelsReport());
  std::set<std::string> peerCores;
  bool peerMeasured = false;

  // The product ceiling, a child of its own each round like every subject; a program that
  // cannot measure it (a stand-in in tests) leaves it out with a note. On CUDA it is the
  // GPU's, float32 and bfloat16, and the child names the GPU ("device: cuda:0 (...)"), so
  // that this process never starts CUDA (its context would count in the probes' GPU memory).
  const auto measureCeiling = [&] {
    if (!o.ceiling || report.rows.empty()) return;
    std::vector<std::string> argv{
        o.self,
        "bench",
        "--probe",
        "ceiling",
        "--threads",
        o.shape.threads == kFollowLoad ? std::string("auto") : std::to_string(o.shape.threads),
        "--device",
        o.shape.device};
    const auto outcome = runChildProcess(argv, environment);
    double gflops = 0.0, bf16Gflops = 0.0;
    for (const auto& [key, value] : probeFields(outcome.out)) {
      if (outcome.exitCode != 0) break;
      if (key == "gflops") gflops = std::strtod(value.c_str(), nullptr);
      if (key == "gflops_bf16") bf16Gflops = std::strtod(value.c_str(), nullptr);
    }
    if (outcome.exitCode == 0) {
      std::istringstream lines(outcome.out);
      std::string line;
      const std::string prefix = "device: ";
      while (std::getline(lines, line)) {
        if (line.rfind(prefix, 0) == 0) report.gpu = line.substr(prefix.size());
      }
    }
    if (bf16Gflops > 0.0) report.ceilingBf16Gflops.push_back(bf16Gflops);
    if (gflops > 0.0) {
      report.ceilingGflops.push_back(gflops);
    } else {
      report.notes.push_back("the product ceiling was not measured: `" + o.self +
                             " bench --probe ceiling` gave " +
                             lastLines(outcome.err + outcome.out, 1));
    }
  };

  const double measurements =
      static_cast<double>(o.repeats) * static_cast<double>(report.rows.size());
  std::map<const BenchRow*, std::string> recurrentDtypes;  // torch::nn::LSTM's, last round
  double started = 0.0;
  std::vector<std::string> failures;
  for (int round = 1; round <= o.repeats; ++round) {
    if (round == 1 || !report.ceilingGflops.empty()) measureCeiling();
    for (auto& row : report.rows) {
      reportTo(job, started++ / measurements,
               "round " + std::to_string(round) + "/" + std::to_string(o.repeats) + ": " +
                   row.subject + " " + benchMeasureName(row.measure));
      BenchShape shape = o.shape;
      shape.cell = row.cell;
      shape.precision = row.precision;
      const auto argv = row.peer ? peerCommand(o, row.cell, row.measure)
                                 : probeCommand(o.self, shape, row.measure);
      // Contention: processor 0 spins for the length of this measurement only.
      std::optional<BusyCore> spinner;
      if (row.busy) spinner.emplace(0);
      const auto outcome = runChildProcess(argv, row.peer ? peerEnvironment : environment);
      spinner.reset();
      const std::string what = row.subject + " " + benchMeasureName(row.measure);
      if (outcome.exitCode != 0) {
        // One subject that fails (a GPU out of memory, a peer's torch without bf16) must not
        // cost the others' figures: it is named in the notes and left out of the table.
        failures.push_back(what + " failed (exit " + std::to_string(outcome.exitCode) +
                           "): " + lastLines(outcome.err + outcome.out, 3));
        report.notes.push_back(failures.back());
        reportTo(job, started / measurements,
                 what + ": failed (exit " + std::to_string(outcome.exitCode) + ")");
        continue;
      }
      const auto result = parseProbeOutput(outcome.out);
      if (row.peer) {
        peerMeasured = true;
        const std::string core = openBlasCoreNamed(outcome.err);
        if (!core.empty()) peerCores.insert(core);
      }
      // Each figure as it comes, so a run cut short still leaves what it measured.
      reportTo(job, started / measurements,
               what + ": " + std::to_string(static_cast<long long>(result.symbolsPerSecond)) +
                   " symbols/s");
      row.rates.push_back(result.symbolsPerSecond);
      row.peakMb.push_back(static_cast<double>(outcome.peakResidentKb) / 1024.0);
      if (result.flopsPerSymbol > 0) row.flopsPerSymbol = result.flopsPerSymbol;
      if (result.parameters > 0) row.parameters = result.parameters;
      if (result.gpuMemoryBytes >= 0) {
        row.gpuMemoryBytes.push_back(static_cast<double>(result.gpuMemoryBytes));
      }
      if (!result.recurrentDtype.empty()) recurrentDtypes[&row] = result.recurrentDtype;
    }
  }
  const std::string kernels = peerKernelsNote(engineCore, peerCores, peerMeasured);
  if (!kernels.empty()) report.notes.push_back(kernels);
  // Autocast casts cuDNN's LSTM itself: say so where a bf16 row ran at another type.
  for (const auto& [row, dtype] : recurrentDtypes) {
    if (row->precision == BenchPrecision::Bf16 && dtype != "BFloat16") {
      report.notes.push_back(row->subject + " " + benchMeasureName(row->measure) +
                             ": under bf16 autocast its recurrence returned " + dtype +
                             ", not BFloat16");
    }
  }
  report.rows.erase(std::remove_if(report.rows.begin(), report.rows.end(),
                                   [](const BenchRow& row) { return row.rates.empty(); }),
                    report.rows.end());
  if (report.rows.empty() && !failures.empty()) throw std::runtime_error(failures.front());
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  report.suiteResidentMb = static_cast<double>(self.ru_maxrss) / 1024.0;
  // The peer runs the same matrices as the engine's cell of its kind (its mLSTM is
  // Krause's, its LSTM torch.nn.LSTM), so its FLOPs per symbol are theirs.
  for (auto& row : report.rows) {
    if (row.flopsPerSymbol > 0 || !row.peer) continue;
    const auto sameWork = [&](const std::string& cell) -> const BenchRow* {
      for (const auto& other : report.rows) {
        if (!other.peer && other.cell == cell && other.measure == row.measure &&
            other.flopsPerSymbol > 0) {
          return &other;
        }
      }
      return nullptr;
    };
    const BenchRow* same = sameWork(row.cell);
    if (!same && row.cell == "lstm") same = sameWork(kTorchLstm);
    if (same) row.flopsPerSymbol = same->flopsPerSymbol;
  }
  return report;
}

}  // namespace mrnn::engine
