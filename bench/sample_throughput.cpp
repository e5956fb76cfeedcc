// mrnn-bench-sample: generation symbols/s of one engine model through engine::Sampler, in
// the shape of `../shared/bench/peer_mlstm.py --sample N` (embedding -> one recurrent layer
// -> softmax, batch 1, temperature 1, one symbol at a time), so the two can run side by
// side. Unlike the peer it also reports the top alternatives of every position (--alternatives,
// default 5, as `mrnn sample` does). Prints one line ending in symbols_per_s=N, like the peer.
//
// --kernels takes a list (highway,scalar) and --rounds N: every set generates once per round,
// in an order rotated from round to round, and a table of medians follows. --mode kernels
// times the kernels themselves instead (bench/kernel_timing.h); there the list may also name
// each Highway target this CPU runs (highway:AVX3,highway:AVX2,..., from kernelVariants()).

#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "bench/kernel_timing.h"
#include "bench/machine_summary.h"
#include "bench/run_statistics.h"

#include "engine/bench/bench_model.h"
#include "engine/inference/single_stream_model.h"
#include "engine/kernels/vector_kernels.h"
#include "engine/models/language_model.h"
#include "engine/runtime/blas_kernels.h"
#include "engine/sampling/sampler.h"

namespace {

mrnn::bench::BenchOptions benchOptions() {
  return {{{"cell", "mlstm"},
           {"hidden", "512"},
           {"emb", "64"},
           {"vocab", "128"},
           {"sample", "2000"},
           {"threads", "0"},
           {"alternatives", "5"},
           {"path", "fast"},
           {"kernels", "best"},
           {"rounds", "1"},
           {"mode", "sample"}},
          "usage: mrnn-bench-sample [--cell NAME] [--hidden N] [--emb N] [--vocab N]\n"
          "  [--sample SYMBOLS] [--threads N] [--alternatives K] [--path fast|generic]\n"
          "  [--kernels best,highway,scalar,...] [--rounds N] [--mode sample|kernels]\n"
          "Generation symbols/s of one model, batch 1, one symbol at a time, as\n"
          "../shared/bench/peer_mlstm.py --sample N; --mode kernels times the kernels alone.\n"};
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> items;
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// --kernels for the sampler: instruction sets the dispatching kernels can be set to.
bool parseIsas(const std::string& list, std::vector<mrnn::engine::KernelIsa>& isas) {
  using mrnn::engine::KernelIsa;
  for (const auto& name : splitList(list)) {
    if (name == "best") {
      isas.push_back(mrnn::engine::activeKernelIsa());
      continue;
    }
    bool known = false;
    for (auto isa : {KernelIsa::Scalar, KernelIsa::Highway}) {
      if (name != mrnn::engine::kernelIsaName(isa)) continue;
      known = true;
      if (!mrnn::engine::kernelIsaSupported(isa)) {
        std::fprintf(stderr, "this CPU (or build) cannot run the %s kernels\n", name.c_str());
        return false;
      }
      isas.push_back(isa);
    }
    if (!known) {
      std::fprintf(stderr, "--kernels lists best, highway or scalar, not '%s'\n", name.c_str());
      return false;
    }
  }
  return !isas.empty();
}

std::string isaLabel(mrnn::engine::KernelIsa isa) {
  std::string label = mrnn::engine::kernelIsaName(isa);
  if (isa == mrnn::engine::KernelIsa::Highway) {
    label += std::string("(") + mrnn::engine::highwayTarget() + ")";
  }
  return label;
}

// --mode kernels: the sets by their kernelVariants() names ("highway" is the dispatched
// one); by default every set this CPU runs.
int timeKernels(const mrnn::bench::BenchOptions& o) {
  mrnn::bench::KernelTimingOptions options;
  const auto variants = mrnn::engine::kernelVariants();
  std::string list = o.text("kernels");
  if (list == "best") {
    list.clear();
    for (const auto& variant : variants) list += (list.empty() ? "" : ",") + variant.name;
  }
  for (const auto& name : splitList(list)) {
    if (name == "highway" && mrnn::engine::kernelIsaSupported(mrnn::engine::KernelIsa::Highway)) {
      options.sets.push_back({name, &mrnn::engine::kernelsFor(mrnn::engine::KernelIsa::Highway)});
      continue;
    }
    bool found = false;
    for (const auto& variant : variants) {
      if (variant.name != name) continue;
      options.sets.push_back(variant);
      found = true;
    }
    if (!found) {
      std::fprintf(stderr, "no kernel set '%s' here; this CPU and build have:", name.c_str());
      for (const auto& variant : variants) std::fprintf(stderr, " %s", variant.name.c_str());
      std::fprintf(stderr, "\n");
      return 2;
    }
  }
  options.rounds = static_cast<int>(o.whole("rounds", 1));
  options.hidden = o.whole("hidden", 1);
  options.intermediate = options.hidden;
  options.vocab = o.whole("vocab", 2);
  std::printf("%s\n", mrnn::bench::machineSummary().c_str());
  mrnn::bench::runKernelTimings(options);
  std::printf("\nload average at the end: %s\n", mrnn::bench::loadAverage().c_str());
  return 0;
}

int sampleRounds(const mrnn::bench::BenchOptions& o) {
  const auto threads = o.whole("threads");
  if (threads > 0) torch::set_num_threads(static_cast<int>(threads));
  if (o.choice("mode", {"sample", "kernels"}) == "kernels") return timeKernels(o);
  mrnn::engine::BenchShape shape;
  shape.cell = o.text("cell");
  shape.hidden = o.whole("hidden", 1);
  shape.embedding = o.whole("emb", 1);
  mrnn::engine::ModelConfig config;
  try {
    config = mrnn::engine::benchModelConfig(shape);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
  const auto vocabulary = mrnn::engine::benchVocabulary(o.whole("vocab", 2));
  mrnn::engine::LanguageModel model(config, vocabulary.size());
  model.eval();
  const std::string path = o.choice("path", {"fast", "generic"});
  std::vector<mrnn::engine::KernelIsa> isas;
  if (!parseIsas(o.text("kernels"), isas)) return 2;
  const int rounds = static_cast<int>(o.whole("rounds", 1));
  const bool table = rounds > 1 || isas.size() > 1;
  if (table) std::printf("%s\n", mrnn::bench::machineSummary().c_str());
  mrnn::engine::Sampler sampler(model, vocabulary);
  sampler.setFastPath(path == "fast");

  // What a generate() call pays once on the fast path: the copy, and the staleness check.
  double copyMs = 0.0, checkMs = 0.0;
  {
    torch::NoGradGuard noGrad;
    auto start = std::chrono::steady_clock::now();
    mrnn::engine::SingleStreamModel copy(model);
    copyMs = millisecondsSince(start);
    start = std::chrono::steady_clock::now();
    const bool current = copy.isCurrent(model);
    checkMs = millisecondsSince(start);
    if (!current) std::fprintf(stderr, "the fresh copy is not current\n");
  }

  mrnn::engine::SamplingOptions options;
  options.alternatives = o.whole("alternatives");
  const int64_t symbols = o.whole("sample", 1);
  // rates[i]: symbols/s of isas[i], one per round.
  std::vector<std::vector<double>> rates(isas.size());
  for (int round = 0; round < rounds; ++round) {
    for (size_t turn = 0; turn < isas.size(); ++turn) {
      const size_t i = (turn + static_cast<size_t>(round)) % isas.size();
      mrnn::engine::setKernelIsa(isas[i]);
      options.maxLength = 20;
      sampler.generate(options);  // warm-up: first-call allocations, thread pool, caches
      options.maxLength = symbols;
      const auto start = std::chrono::steady_clock::now();
      const auto completions = sampler.generate(options);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      rates[i].push_back(static_cast<double>(completions.front().symbols.size()) / seconds);
      std::printf(
          "%s hidden=%s alternatives=%s path=%s kernels=%s threads=%d copy_ms=%.2f "
          "check_ms=%.2f sample symbols_per_s=%.0f\n",
          o.text("cell").c_str(), o.text("hidden").c_str(), o.text("alternatives").c_str(),
          path.c_str(), path == "fast" ? isaLabel(isas[i]).c_str() : "torch",
          torch::get_num_threads(), copyMs, checkMs, rates[i].back());
      std::fflush(stdout);
    }
  }
  if (!table) return 0;
  // Against the first set, round by round: the runs of one round are seconds apart, so a
  // neighbour's load falls on both alike.
  std::printf(
      "\nsymbols/s over %d rounds; / %s: the ratio within each round, median (min-max)\n\n"
      "| kernels | median | min-max | / %s | runs |\n| --- | ---: | --- | ---: | --- |\n",
      rounds, isaLabel(isas.front()).c_str(), isaLabel(isas.front()).c_str());
  for (size_t i = 0; i < isas.size(); ++i) {
    const auto spread = mrnn::bench::spreadOf(rates[i]);
    std::vector<double> ratios;
    for (size_t r = 0; r < rates[i].size(); ++r) ratios.push_back(rates[i][r] / rates[0][r]);
    const auto ratio = mrnn::bench::spreadOf(ratios);
    std::printf("| %s | %.0f | %.0f-%.0f | %.3f (%.2f-%.2f) |", isaLabel(isas[i]).c_str(),
                spread.median, spread.low, spread.high, ratio.median, ratio.low, ratio.high);
    for (double rate : rates[i]) std::printf(" %.0f", rate);
    std::printf(" |\n");
  }
  std::printf("\nload average at the end: %s\n", mrnn::bench::loadAverage().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  mrnn::engine::relaunchWithBetterBlasKernels(argv);
  return mrnn::bench::runBench(argc, argv, benchOptions(), sampleRounds);
}
