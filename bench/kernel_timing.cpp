#include "bench/kernel_timing.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "bench/run_statistics.h"

namespace mrnn::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Keeps the sums of exp alive: the compiler may not drop a call whose result is stored.
volatile float sink = 0.0f;

std::vector<float> randomValues(int64_t n, std::mt19937& random, float low, float high) {
  std::uniform_real_distribution<float> draw(low, high);
  std::vector<float> values(static_cast<size_t>(n));
  for (auto& v : values) v = draw(random);
  return values;
}

// The operands, shared by every set so that each reads the same memory.
struct Buffers {
  int64_t hidden, intermediate, vocab;
  std::vector<float> wMh, wM, softmax, h, m, pre, logits, gates, cell;
};

// One kernel at one shape: `run(set, iterations, buffers)` calls it that many times.
struct Kernel {
  std::string name;
  std::string shape;
  void (*run)(const engine::KernelSet&, int64_t, Buffers&);
  int64_t iterations = 1;
};

void gemvMh(const engine::KernelSet& set, int64_t iterations, Buffers& b) {
  for (int64_t i = 0; i < iterations; ++i) {
    set.gemv(b.wMh.data(), b.intermediate, b.hidden, b.h.data(), b.m.data(), false);
  }
}

void gemvM(const engine::KernelSet& set, int64_t iterations, Buffers& b) {
  for (int64_t i = 0; i < iterations; ++i) {
    set.gemv(b.wM.data(), 4 * b.hidden, b.intermediate, b.m.data(), b.pre.data(), false);
  }
}

void gemvSoftmax(const engine::KernelSet& set, int64_t iterations, Buffers& b) {
  for (int64_t i = 0; i < iterations; ++i) {
    set.gemv(b.softmax.data(), b.vocab, b.hidden, b.h.data(), b.logits.data(), false);
  }
}

// The three products of one sampling step in its order: more bytes than a 2 MB L2 holds.
void gemvStep(const engine::KernelSet& set, int64_t iterations, Buffers& b) {
  for (int64_t i = 0; i < iterations; ++i) {
    set.gemv(b.wMh.data(), b.intermediate, b.hidden, b.h.data(), b.m.data(), false);
    set.gemv(b.wM.data(), 4 * b.hidden, b.intermediate, b.m.data(), b.pre.data(), false);
    set.gemv(b.softmax.data(), b.vocab, b.hidden, b.h.data(), b.logits.data(), false);
  }
}

// In place, over and over: the values stay in (0, 1), which costs what any input costs.
void sigmoid(const engine::KernelSet& set, int64_t iterations, Buffers& b) {
  for (int64_t i = 0; i < iterations; ++i) {
    set.sigmoid(b.gates.data(), static_cast<int64_t>(b.gates.size()));
  }
}

void tanhKernel(const engine::KernelSet& set, int64_t iterations, Buffers& b) {
  for (int64_t i = 0; i < iterations; ++i) {
    set.tanh(b.cell.data(), static_cast<int64_t>(b.cell.size()));
  }
}

void sumExp(const engine::KernelSet& set, int64_t iterations, Buffers& b) {
  float total = 0.0f;
  for (int64_t i = 0; i < iterations; ++i) {
    total += set.sumExp(b.logits.data(), b.vocab, 1.0f);
  }
  sink = total;
}

double nanosecondsPerCall(const Kernel& kernel, const engine::KernelSet& set, Buffers& b) {
  const auto start = Clock::now();
  kernel.run(set, kernel.iterations, b);
  const std::chrono::duration<double, std::nano> elapsed = Clock::now() - start;
  return elapsed.count() / static_cast<double>(kernel.iterations);
}

}  // namespace

void runKernelTimings(const KernelTimingOptions& o) {
  std::mt19937 random(7);
  Buffers b{o.hidden, o.intermediate, o.vocab, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  b.wMh = randomValues(o.intermediate * o.hidden, random, -0.1f, 0.1f);
  b.wM = randomValues(4 * o.hidden * o.intermediate, random, -0.1f, 0.1f);
  b.softmax = randomValues(o.vocab * o.hidden, random, -0.1f, 0.1f);
  b.h = randomValues(o.hidden, random, -1.0f, 1.0f);
  b.m = randomValues(o.intermediate, random, -1.0f, 1.0f);
  b.pre = randomValues(4 * o.hidden, random, -1.0f, 1.0f);
  b.logits = randomValues(o.vocab, random, -5.0f, 5.0f);
  b.gates = randomValues(3 * o.hidden, random, -5.0f, 5.0f);
  b.cell = randomValues(o.hidden, random, -5.0f, 5.0f);

  const std::string h = std::to_string(o.hidden), m = std::to_string(o.intermediate),
                    v = std::to_string(o.vocab);
  std::vector<Kernel> kernels = {
      {"gemv W_mh", m + " x " + h, gemvMh},
      {"gemv W_m", std::to_string(4 * o.hidden) + " x " + m, gemvM},
      {"gemv softmax", v + " x " + h, gemvSoftmax},
      {"gemv step (all three)", "", gemvStep},
      {"sigmoid", std::to_string(3 * o.hidden), sigmoid},
      {"tanh", h, tanhKernel},
      {"sum of exp", v, sumExp},
  };
  // Calls per timing, from the first set: doubled until they take the time asked for, then
  // the same for every set and round.
  for (auto& kernel : kernels) {
    while (nanosecondsPerCall(kernel, *o.sets.front().kernels, b) * 1e-6 *
               static_cast<double>(kernel.iterations) <
           o.millisecondsPerTiming) {
      kernel.iterations *= 2;
    }
  }

  // runs[kernel][set]: ns per call, one entry per round.
  std::vector<std::vector<std::vector<double>>> runs(
      kernels.size(), std::vector<std::vector<double>>(o.sets.size()));
  for (int round = 0; round < o.rounds; ++round) {
    for (size_t turn = 0; turn < o.sets.size(); ++turn) {
      const size_t s = (turn + static_cast<size_t>(round)) % o.sets.size();
      std::printf("round %d %-14s", round + 1, o.sets[s].name.c_str());
      for (size_t k = 0; k < kernels.size(); ++k) {
        runs[k][s].push_back(nanosecondsPerCall(kernels[k], *o.sets[s].kernels, b));
        std::printf(" %.0f", runs[k][s].back());
      }
      std::printf("\n");
    }
    std::fflush(stdout);
  }

  std::printf(
      "\nns per call, median (min-max) of %d rounds; / %s: the ratio of the two times within "
      "each round, median (min-max), above 1 when slower than %s\n\n| kernel | shape |",
      o.rounds, o.sets.front().name.c_str(), o.sets.front().name.c_str());
  for (const auto& set : o.sets) std::printf(" %s |", set.name.c_str());
  for (size_t s = 1; s < o.sets.size(); ++s) {
    std::printf(" %s / %s |", o.sets[s].name.c_str(), o.sets.front().name.c_str());
  }
  std::printf("\n| --- | --- |");
  for (size_t i = 0; i + 1 < 2 * o.sets.size(); ++i) std::printf(" ---: |");
  std::printf("\n");
  for (size_t k = 0; k < kernels.size(); ++k) {
    std::printf("| %s | %s |", kernels[k].name.c_str(), kernels[k].shape.c_str());
    for (size_t s = 0; s < o.sets.size(); ++s) {
      const Spread spread = spreadOf(runs[k][s]);
      std::printf(" %.0f (%.0f-%.0f) |", spread.median, spread.low, spread.high);
    }
    for (size_t s = 1; s < o.sets.size(); ++s) {
      // Round by round: the two ran seconds apart, so a neighbour's load hits both alike.
      std::vector<double> ratios;
      for (size_t r = 0; r < runs[k][s].size(); ++r)
        ratios.push_back(runs[k][s][r] / runs[k][0][r]);
      const Spread spread = spreadOf(ratios);
      std::printf(" %.3f (%.2f-%.2f) |", spread.median, spread.low, spread.high);
    }
    std::printf("\n");
  }
}

}  // namespace mrnn::bench
