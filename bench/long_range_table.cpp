// mrnn-bench-long-range: the long-range problems tables of docs/performance.md. For each
// problem and length and each of N seeds, Hessian-free with structural damping and Adam train
// the same tanh RNN from the same start at equal time (engine/bench/long_range_race.h): each
// run stops at a validation that shows the problem solved (training.stop_when_solved) and is
// solved when below 1% of fresh test sequences are wrong. One line per
// run, then per problem the share of runs solved, the median time to solve and CG's median
// iterations to solve.
//
//   mrnn-bench-long-range --problems temporal_order_2bit:60,addition:60 --hf-steps 60
//   mrnn-bench-long-range --problems xor:100 --seeds 4 --budget 1800 --hf-steps 0

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "bench/machine_summary.h"
#include "engine/bench/bench_report.h"
#include "engine/bench/long_range_race.h"

namespace {

using mrnn::engine::SyntheticTask;

// A default as the option's text: the race's own (RaceOptions), so that they are said once.
template <typename T>
std::string text(T value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// The defaults are the race's own (RaceOptions), so that they are said once.
mrnn::bench::BenchOptions benchOptions() {
  const mrnn::engine::RaceOptions race;
  std::map<std::string, std::string> defaults{{"problems", "temporal_order_2bit:60"},
                                              {"hf-steps", text(race.hessianFreeSteps)},
                                              {"budget", text(race.budgetSeconds)},
                                              {"seeds", "1"},
                                              {"gradient-windows", "auto"},
                                              {"curvature-windows", "auto"},
                                              {"cg-max", "auto"},
                                              {"min-lambda", "auto"},
                                              {"mu", "auto"},
                                              {"hidden", "auto"},
                                              {"recurrent-scale", "auto"},
                                              {"recurrent-init", "auto"},
                                              {"input-scale", "auto"},
                                              {"batch", "auto"},
                                              {"adam-lr", text(race.adamRate)},
                                              {"adam", "yes"},
                                              {"seed", text(race.seed)},
                                              {"threads", text(race.threads)},
                                              {"folder", ""}};
  return {defaults,
          "usage: mrnn-bench-long-range [--problems NAME:T,...] [--hf-steps N]\n"
          "  [--budget SECONDS] [--seeds N] [--seed FIRST] [--hidden N] [--batch N]\n"
          "  [--recurrent-init sparse|orthogonal] [--recurrent-scale R] [--input-scale S]\n"
          "  [--gradient-windows N] [--curvature-windows N]\n"
          "  [--cg-max N] [--min-lambda L] [--mu M] [--adam-lr R] [--adam yes|no] [--threads N]\n"
          "  [--folder DIR]\n"
          "--hf-steps 0 with --budget: Hessian-free until solved or out of time; Adam\n"
          "gets the budget (without one, Hessian-free's time). --adam no: Hessian-free only.\n"
          "--hidden, --recurrent-init, --recurrent-scale, --input-scale, --batch,\n"
          "--gradient-windows, --curvature-windows,\n"
          "--cg-max, --min-lambda, --mu (structural damping): auto (the default) takes the\n"
          "problem's own, the settings it was measured to need: 64 units from radius 1.0\n"
          "(random_permutation and 5-bit memorisation 1.2), 5 windows of 100 for the\n"
          "gradient and 1 for the curvature, CG up to 100, λ at least 0.05 where the\n"
          "answer is a symbol (none for addition and multiplication, as Martens' code),\n"
          "μ 0.03; memorization_5bit 100 units and its 32 patterns as one window for\n"
          "both, CG up to 300; memorization_20bit 200 units from orthogonal weights of\n"
          "scale 1.1 and inputs scaled by 0.3, 10 windows for the gradient and 3 for the\n"
          "curvature, CG up to 300, λ at least 0.005. --recurrent-init: sparse (15\n"
          "weights a unit) or orthogonal; --input-scale: the input weights' bound, times\n"
          "1/√inputs.\n"
          "The report ends with each problem's settings.\n"};
}

SyntheticTask problemNamed(const std::string& name) {
  const auto task = mrnn::engine::syntheticTaskNamed(name);
  if (!task || !mrnn::engine::isLongRangeProblem(*task)) {
    throw mrnn::bench::BenchOptionError("unknown problem " + name);
  }
  return *task;
}

std::string percent(double rate) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * rate);
  return text;
}

std::string seconds(double value) {
  if (value < 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f s", value);
  return text;
}

// One optimiser's runs on one problem: "2/4", the median time and CG iterations to solve.
struct Tally {
  int solved = 0;
  int runs = 0;
  std::vector<double> times;
  std::vector<double> cg;

  void add(const mrnn::engine::RaceResult& run) {
    ++runs;
    if (!run.solved) return;
    ++solved;
    times.push_back(run.seconds);  // the run ended when it solved
    cg.push_back(static_cast<double>(run.cgIterations));
  }
  std::string rate() const {
    return runs == 0 ? "-" : std::to_string(solved) + "/" + std::to_string(runs);
  }
};

mrnn::engine::RaceOptions raceOptions(const mrnn::bench::BenchOptions& options,
                                      const std::string& item) {
  const auto colon = item.find(':');
  mrnn::engine::RaceOptions race;
  race.problem = problemNamed(item.substr(0, colon));
  race.length = colon == std::string::npos
                    ? 60
                    : mrnn::bench::wholeNumber("the length in " + item, item.substr(colon + 1), 1);
  race.hessianFreeSteps = options.whole("hf-steps");
  race.budgetSeconds = options.real("budget");
  race.hidden = options.wholeOrAuto("hidden");
  race.recurrentScale = options.realOrAuto("recurrent-scale");
  race.inputScale = options.realOrAuto("input-scale");
  const std::string init = options.choice("recurrent-init", {"auto", "sparse", "orthogonal"});
  if (init != "auto") race.orthogonal = init == "orthogonal";
  race.batch = options.wholeOrAuto("batch");
  race.gradientWindows = options.wholeOrAuto("gradient-windows");
  race.curvatureWindows = options.wholeOrAuto("curvature-windows");
  race.cgMaxIterations = options.wholeOrAuto("cg-max");
  race.minLambda = options.realOrAuto("min-lambda");
  race.structuralDamping = options.realOrAuto("mu");
  race.adamRate = options.real("adam-lr");
  const std::string adam = options.choice("adam", {"yes", "no"});
  race.raceAdam = adam == "yes";
  race.threads = static_cast<int>(options.whole("threads"));
  return race;
}

// One problem and length over `seeds` seeds from `firstSeed`, each run in its own subfolder of
// `root`: a line per run printed as it ends; returns the problem's summary line.
std::string raceSeeds(mrnn::engine::RaceOptions race, int seeds, uint64_t firstSeed,
                      const std::string& root) {
  Tally hf;
  Tally adam;
  for (int k = 0; k < seeds; ++k) {
    race.seed = firstSeed + static_cast<uint64_t>(k);
    const std::string folder = root + "/" + mrnn::engine::syntheticTaskName(race.problem) + "-T" +
                               std::to_string(race.length) + "-seed" + std::to_string(race.seed);
    const auto result = mrnn::engine::raceOnProblem(race, folder);
    const auto& h = result.hessianFree;
    const auto& a = result.adam;
    std::printf("| %s | %lld | %llu | %lld | %lld | %s | %s | %s | %s | %s | %s | %s |\n",
                mrnn::engine::syntheticTaskName(race.problem).c_str(),
                static_cast<long long>(race.length), static_cast<unsigned long long>(race.seed),
                static_cast<long long>(h.steps), static_cast<long long>(h.cgIterations),
                seconds(h.seconds).c_str(), percent(h.testErrorRate).c_str(),
                h.solved    ? "yes"
                : h.stalled ? "no (λ ran away)"
                            : "no",
                race.raceAdam ? std::to_string(a.steps).c_str() : "-",
                race.raceAdam ? seconds(a.seconds).c_str() : "-",
                race.raceAdam ? percent(a.testErrorRate).c_str() : "-",
                race.raceAdam ? (a.solved ? "yes" : "no") : "-");
    std::fflush(stdout);
    hf.add(h);
    if (race.raceAdam) adam.add(a);
  }
  using mrnn::engine::median;
  char line[512];
  std::snprintf(line, sizeof line, "| %s | %lld | %s | %s | %s | %s | %s |",
                mrnn::engine::syntheticTaskName(race.problem).c_str(),
                static_cast<long long>(race.length), hf.rate().c_str(),
                hf.solved ? seconds(median(hf.times)).c_str() : "-",
                hf.solved ? std::to_string(static_cast<long long>(median(hf.cg))).c_str() : "-",
                adam.rate().c_str(), adam.solved ? seconds(median(adam.times)).c_str() : "-");
  return line;
}

int runTables(int argc, char** argv, const mrnn::bench::BenchOptions& options) {
  // Every name is checked before anything is made or run: a typo is not found an hour in.
  std::vector<mrnn::engine::RaceOptions> races;
  std::stringstream list(options.text("problems"));
  std::string item;
  while (std::getline(list, item, ',')) {
    races.push_back(raceOptions(options, item));
    try {
      mrnn::engine::checkRace(races.back());
    } catch (const std::exception& error) {
      std::fprintf(stderr, "mrnn-bench-long-range: %s: %s\n", item.c_str(), error.what());
      return 2;
    }
  }
  std::string command = "mrnn-bench-long-range";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  // A folder the user names keeps every run (a subfolder per problem, length and seed; a
  // database already there gets more runs, nothing is removed); without one, a fresh
  // temporary folder is made and removed at the end.
  const bool keep = !options.text("folder").empty();
  std::string scratch;
  if (!keep) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "mrnn-long-range-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      std::fprintf(stderr, "cannot make a temporary folder under %s\n",
                   std::filesystem::temp_directory_path().c_str());
      return 1;
    }
    scratch = pattern;
  }
  const std::string root = keep ? options.text("folder") : scratch;
  const auto firstSeed = static_cast<uint64_t>(options.whole("seed"));
  const int seeds = static_cast<int>(options.whole("seeds", 1));
  std::printf("%s\n\n%s\n\n", command.c_str(), mrnn::bench::machineSummary().c_str());
  std::printf(
      "| problem | T | seed | HF steps | CG iterations | HF time | HF test error | HF solved "
      "| Adam steps | Adam time | Adam test error | Adam solved |\n"
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |\n");
  std::vector<std::string> summary;
  int status = 0;
  try {
    for (const auto& race : races) summary.push_back(raceSeeds(race, seeds, firstSeed, root));
  } catch (const std::exception& error) {
    std::fflush(stdout);
    std::fprintf(stderr, "mrnn-bench-long-range: %s\n", error.what());
    status = 1;
  }
  std::printf(
      "\n| problem | T | HF solved | HF median time to solve | HF median CG iterations to solve "
      "| Adam solved | Adam median time to solve |\n"
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const auto& line : summary) std::printf("%s\n", line.c_str());
  std::printf("\nSettings (engine/bench/long_range_race.h: raceRecipe):\n");
  for (const auto& race : races) {
    std::printf("- %s T = %lld: %s\n", mrnn::engine::syntheticTaskName(race.problem).c_str(),
                static_cast<long long>(race.length),
                mrnn::engine::raceSettingsText(mrnn::engine::raceSettings(race)).c_str());
  }
  if (!keep) std::filesystem::remove_all(scratch);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return mrnn::bench::runBench(
      argc, argv, benchOptions(),
      [&](const mrnn::bench::BenchOptions& options) { return runTables(argc, argv, options); });
}
