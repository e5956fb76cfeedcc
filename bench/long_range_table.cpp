// mrnn-bench-long-range: the long-range problems table of docs/performance.md. For each
// problem and length, Hessian-free with structural damping trains a tanh RNN for a number of
// steps, then Adam trains the same model from the same start for the same training time
// (engine/bench/long_range_race.h); each line gives both test error rates and whether the
// problem was solved (below 1% of fresh test sequences wrong).
//
//   mrnn-bench-long-range --problems temporal_order_2bit:60,addition:60 --hf-steps 60

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/machine_summary.h"
#include "engine/bench/long_range_race.h"

namespace {

using mrnn::engine::SyntheticTask;

std::map<std::string, std::string> parse(int argc, char** argv) {
  std::map<std::string, std::string> options{{"problems", "temporal_order_2bit:60"},
                                             {"hf-steps", "60"},
                                             {"hidden", "64"},
                                             {"batch", "100"},
                                             {"adam-lr", "0.003"},
                                             {"seed", "1"},
                                             {"threads", "0"},
                                             {"folder", ""}};
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--help" || key == "-h") {
      std::printf(
          "usage: mrnn-bench-long-range [--problems NAME:T,...] [--hf-steps N]\n"
          "  [--hidden N] [--batch N] [--adam-lr R] [--seed S] [--threads N]"
          " [--folder DIR]\n");
      std::exit(0);
    }
    if (key.rfind("--", 0) != 0 || !options.count(key.substr(2))) {
      std::fprintf(stderr, "unknown option %s (--help lists them)\n", argv[i]);
      std::exit(2);
    }
    if (i + 1 == argc) {
      std::fprintf(stderr, "%s needs a value\n", argv[i]);
      std::exit(2);
    }
    options[key.substr(2)] = argv[i + 1];
  }
  return options;
}

SyntheticTask problemNamed(const std::string& name) {
  for (int k = 0; k < 8; ++k) {
    const auto task = static_cast<SyntheticTask>(k);
    if (mrnn::engine::isLongRangeProblem(task) && mrnn::engine::syntheticTaskName(task) == name) {
      return task;
    }
  }
  std::fprintf(stderr, "unknown problem %s\n", name.c_str());
  std::exit(2);
}

std::string percent(double rate) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * rate);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  const auto options = parse(argc, argv);
  std::string command = "mrnn-bench-long-range";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  const std::string folder =
      options.at("folder").empty()
          ? (std::filesystem::temp_directory_path() / "mrnn-long-range").string()
          : options.at("folder");
  std::printf("%s\n\n%s\n\n", command.c_str(), mrnn::bench::machineSummary().c_str());
  std::printf(
      "| problem | T | HF steps | CG iterations | HF time | HF test error | HF solved | Adam steps "
      "| Adam test error | Adam solved |\n"
      "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |\n");
  std::stringstream list(options.at("problems"));
  std::string item;
  while (std::getline(list, item, ',')) {
    const auto colon = item.find(':');
    mrnn::engine::RaceOptions race;
    race.problem = problemNamed(item.substr(0, colon));
    race.length = colon == std::string::npos ? 60 : std::stoll(item.substr(colon + 1));
    race.hessianFreeSteps = std::stoll(options.at("hf-steps"));
    race.hidden = std::stoll(options.at("hidden"));
    race.batch = std::stoll(options.at("batch"));
    race.adamRate = std::stod(options.at("adam-lr"));
    race.seed = std::stoull(options.at("seed"));
    race.threads = std::stoi(options.at("threads"));
    std::filesystem::remove_all(folder);
    const auto result = mrnn::engine::raceOnProblem(race, folder);
    std::printf("| %s | %lld | %lld | %lld | %.0f s | %s | %s | %lld | %s | %s |\n",
                mrnn::engine::syntheticTaskName(race.problem).c_str(),
                static_cast<long long>(race.length),
                static_cast<long long>(result.hessianFree.steps),
                static_cast<long long>(result.hessianFree.cgIterations), result.hessianFree.seconds,
                percent(result.hessianFree.testErrorRate).c_str(),
                result.hessianFree.solved ? "yes" : "no", static_cast<long long>(result.adam.steps),
                percent(result.adam.testErrorRate).c_str(), result.adam.solved ? "yes" : "no");
    std::fflush(stdout);
  }
  return 0;
}
