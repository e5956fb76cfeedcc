// mrnn-bench-untrained-memory: what an untrained tanh RNN keeps of a memorisation problem's
// symbols, by initialisation (engine/bench/untrained_memory.h): one row per recurrent init,
// scale, input scale and seed, each recalled step's share read wrong by one least-squares
// readout, the share of sequences with any wrong, and the readout's norm.
//
//   mrnn-bench-untrained-memory --inits sparse:1.2,orthogonal:1.05 --input-scales 0.5,1 --seeds 2

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "bench/bench_options.h"
#include "bench/machine_summary.h"
#include "engine/bench/untrained_memory.h"

namespace {

using mrnn::engine::SyntheticTask;

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

const char* const kUsage =
    "usage: mrnn-bench-untrained-memory [--problem memorization_20bit:T]\n"
    "  [--inits sparse:R,orthogonal:S,...] [--input-scales A,B,...] [--hidden N]\n"
    "  [--seeds N]\n"
    "For each initialisation (sparse of spectral radius R, or orthogonal of scale S),\n"
    "input scale and seed 1..N: how well one linear readout, fitted by least squares\n"
    "on 2,000 sequences' hidden states, reads the recalled symbols of 1,000 others\n"
    "from an untrained tanh RNN.\n";

int runTable(const mrnn::bench::BenchOptions& options) {
  using mrnn::bench::positiveNumber;
  torch::set_num_threads(1);
  mrnn::engine::UntrainedMemoryOptions base;
  const std::string problem = options.text("problem");
  const auto colon = problem.find(':');
  const std::string name = problem.substr(0, colon);
  if (name == "memorization_5bit") {
    base.problem = SyntheticTask::Memorization5;
  } else if (name != "memorization_20bit") {
    std::fprintf(stderr, "--problem takes memorization_5bit or memorization_20bit, not %s\n",
                 name.c_str());
    return 2;
  }
  if (colon != std::string::npos) {
    base.length = mrnn::bench::wholeNumber("the length", problem.substr(colon + 1), 1);
  }
  base.hidden = options.whole("hidden", 1);
  const auto seeds = static_cast<uint64_t>(options.whole("seeds", 1));

  // Every line's options first: a bad item is refused before the table starts.
  std::vector<std::pair<std::string, mrnn::engine::UntrainedMemoryOptions>> lines;
  for (const std::string& init : split(options.text("inits"))) {
    const auto at = init.find(':');
    const std::string kind = init.substr(0, at);
    if ((kind != "sparse" && kind != "orthogonal") || at == std::string::npos) {
      std::fprintf(stderr, "--inits takes sparse:R or orthogonal:S items, not %s\n", init.c_str());
      return 2;
    }
    for (const std::string& input : split(options.text("input-scales"))) {
      for (uint64_t seed = 1; seed <= seeds; ++seed) {
        auto o = base;
        o.orthogonal = kind == "orthogonal";
        o.recurrentScale = positiveNumber("--inits", init.substr(at + 1));
        o.inputScale = positiveNumber("--input-scales", input);
        o.seed = seed;
        lines.emplace_back("| " + init + " | " + input + " | " + std::to_string(seed) + " | ", o);
      }
    }
  }

  std::printf("%s\n\n", mrnn::bench::machineSummary().c_str());
  std::printf(
      "| init | input scale | seed | wrong at each recalled step, in order | "
      "sequences wrong | readout norm |\n| --- | ---: | ---: | --- | ---: | ---: |\n");
  double chance = 0.0;
  for (const auto& [start, o] : lines) {
    try {
      const auto m = mrnn::engine::measureUntrainedMemory(o);
      chance = m.chance;
      std::string steps;
      for (double w : m.wrongAt) {
        steps += (steps.empty() ? "" : ", ") + std::to_string(std::lround(100 * w));
      }
      std::printf("%s%s%% | %.1f%% | %.3g |\n", start.c_str(), steps.c_str(),
                  100 * m.sequencesWrong, m.readoutNorm);
      std::fflush(stdout);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "mrnn-bench-untrained-memory: %s\n", error.what());
      return 1;
    }
  }
  std::printf("\nChance: %.0f%% wrong at each recalled step.\n", 100 * chance);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return mrnn::bench::runBench(argc, argv,
                               {{{"problem", "memorization_20bit:100"},
                                 {"inits", "sparse:1.2,orthogonal:1.0"},
                                 {"input-scales", "1"},
                                 {"hidden", "100"},
                                 {"seeds", "2"}},
                                kUsage},
                               runTable);
}
