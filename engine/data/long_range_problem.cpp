#include "engine/data/long_range_problem.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "engine/data/portable_random.h"

namespace mrnn::engine {
namespace {

std::vector<std::string> problemSymbols(SyntheticTask task) {
  switch (task) {
    case SyntheticTask::Addition:
    case SyntheticTask::Multiplication:
      return {"-", "mark", "signal"};
    case SyntheticTask::Xor:
      return {"-", "mark", "signal", "0", "1"};
    case SyntheticTask::TemporalOrder2:
      return {"a", "b", "c", "d", "X", "Y", "E", "B", "XX", "XY", "YX", "YY"};
    case SyntheticTask::TemporalOrder3:
      return {"a",   "b",   "c",   "d",   "X",   "Y",   "E",   "B",
              "XXX", "YXX", "XYX", "YYX", "XXY", "YXY", "XYY", "YYY"};
    case SyntheticTask::RandomPermutation: {
      std::vector<std::string> symbols;
      for (int i = 0; i < 100; ++i) symbols.push_back("s" + std::to_string(i));
      return symbols;
    }
    case SyntheticTask::Memorization5:
      return {"0", "1", "go", "blank"};
    case SyntheticTask::Memorization20:
      return {"0", "1", "2", "3", "4", "go", "blank"};
    case SyntheticTask::None:
    case SyntheticTask::ReverseCopy:
      break;
  }
  throw std::invalid_argument("'" + syntheticTaskName(task) + "' is not a long-range problem");
}

// Uniform in [low, high] (both included).
int64_t between(std::mt19937_64& random, int64_t low, int64_t high) {
  return low + uniformBelow(random, static_cast<uint64_t>(high - low + 1));
}

// The markers of the two-number problems: the signal opens the sequence and comes again three
// steps before the answer; the two operands are marked.
void markTwo(std::vector<int64_t>& inputs, int64_t first, int64_t second, int64_t end) {
  inputs[0] = 2;
  inputs[static_cast<size_t>(first)] = 1;
  inputs[static_cast<size_t>(second)] = 1;
  inputs[static_cast<size_t>(end - 3)] = 2;
}

struct Builder {
  explicit Builder(int64_t window) {
    s.inputs.assign(static_cast<size_t>(window), 0);
    s.targets.assign(static_cast<size_t>(window), 0);
    s.mask.assign(static_cast<size_t>(window), 0.0f);
  }
  void answer(int64_t step, int64_t target) {
    s.targets[static_cast<size_t>(step)] = target;
    s.mask[static_cast<size_t>(step)] = 1.0f;
    s.judged.push_back(step);
  }
  ProblemSequence s;
};

}  // namespace

LongRangeProblem::LongRangeProblem(SyntheticTask task, const ProblemConfig& config)
    : task_(task), config_(config) {
  vocabulary_ = Vocabulary::fromSymbols(InputLevel::Word, problemSymbols(task));
  const int64_t t = config.length;
  if (t < shortestProblemLength(task) || t > (int64_t{1} << 24)) {
    throw std::invalid_argument("data.problem.length: " + syntheticTaskName(task) +
                                " needs T from " + std::to_string(shortestProblemLength(task)) +
                                " to 16,777,216; got " + std::to_string(t));
  }
  const bool variable = task == SyntheticTask::Addition || task == SyntheticTask::Multiplication ||
                        task == SyntheticTask::TemporalOrder2 ||
                        task == SyntheticTask::TemporalOrder3;
  if (task == SyntheticTask::Xor) {
    window_ = std::max(t * 55 / 100, t / 2 + 1);  // lengths in [T/2, 0.55 T)
  } else {
    window_ = variable ? std::max(t * 110 / 100, t + 1) : t;
  }
}

int64_t LongRangeProblem::sequences(ProblemSplit split) const {
  switch (split) {
    case ProblemSplit::Train:
      return config_.trainSequences;
    case ProblemSplit::Valid:
      return config_.validSequences;
    case ProblemSplit::Test:
      return config_.testSequences;
  }
  return 0;
}

ProblemSequence LongRangeProblem::sequence(ProblemSplit split, int64_t index) const {
  std::mt19937_64 random(splitmix64(config_.seed ^ splitmix64((static_cast<uint64_t>(split) << 48) +
                                                              static_cast<uint64_t>(index) + 1)));
  const int64_t t = config_.length;
  const auto at = [t](int64_t percent) { return percent * t / 100; };
  Builder b(window_);
  auto& in = b.s.inputs;
  const auto step = [](int64_t k) { return static_cast<size_t>(k); };
  switch (task_) {
    case SyntheticTask::Addition:
    case SyntheticTask::Multiplication: {
      b.s.values.resize(step(window_));
      b.s.targetValues.assign(step(window_), 0.0f);
      for (auto& v : b.s.values) v = static_cast<float>(uniformUnit(random));
      const int64_t end = between(random, t, window_ - 1);
      const int64_t first = between(random, std::max<int64_t>(1, at(1)), at(10) - 1);
      const int64_t second = between(random, at(10), at(50) - 1);
      markTwo(in, first, second, end);
      b.answer(end, 0);
      const float x = b.s.values[step(first)];
      const float y = b.s.values[step(second)];
      b.s.targetValues[step(end)] = task_ == SyntheticTask::Addition ? x + y : x * y;
      break;
    }
    case SyntheticTask::Xor: {
      b.s.values.resize(step(window_));
      for (auto& v : b.s.values) v = uniformBelow(random, 2) == 1 ? 1.0f : 0.0f;
      const int64_t end = between(random, t / 2, window_ - 1);
      const int64_t first = between(random, std::max<int64_t>(1, at(1)), at(10) - 1);
      const int64_t second = between(random, at(15), at(25) - 1);
      markTwo(in, first, second, end);
      // The marked bits alternate with the index: every batch of 4 holds each pair once.
      const int64_t x = index % 2;
      const int64_t y = (index / 2) % 2;
      b.s.values[step(first)] = static_cast<float>(x);
      b.s.values[step(second)] = static_cast<float>(y);
      b.answer(end, 3 + (x ^ y));  // the symbols "0" and "1"
      break;
    }
    case SyntheticTask::TemporalOrder2:
    case SyntheticTask::TemporalOrder3: {
      const bool three = task_ == SyntheticTask::TemporalOrder3;
      for (auto& symbol : in) symbol = uniformBelow(random, 4);
      const int64_t end = between(random, t, window_ - 1);
      in[0] = 7;          // B
      in[step(end)] = 6;  // E: answer now
      // The class's bits, balanced over consecutive indices: X = 4, Y = 5.
      const int64_t bits[3] = {index % 2, (index / 2) % 2, (index / 4) % 2};
      const int64_t ranges[3][2] = {{std::max<int64_t>(1, at(1)), at(10)},
                                    {three ? at(30) : at(40), three ? at(40) : at(50)},
                                    {at(50), at(60)}};
      int64_t target = 0;
      for (int k = 0; k < (three ? 3 : 2); ++k) {
        in[step(between(random, ranges[k][0], ranges[k][1]))] = 4 + bits[k];
        target += bits[k] << k;
      }
      // 2 bits: XX XY YX YY are 8..11 with the first symbol the high bit.
      if (!three) target = 2 * bits[0] + bits[1];
      b.answer(end, 8 + target);
      break;
    }
    case SyntheticTask::RandomPermutation: {
      in[0] = index % 2;
      for (int64_t k = 1; k < t; ++k) in[step(k)] = 2 + uniformBelow(random, 98);
      for (int64_t k = 0; k + 1 < t; ++k) {
        b.s.targets[step(k)] = in[step(k + 1)];
        b.s.mask[step(k)] = 1.0f;
      }
      b.answer(t - 1, in[0]);
      break;
    }
    case SyntheticTask::Memorization5:
    case SyntheticTask::Memorization20: {
      const bool five = task_ == SyntheticTask::Memorization5;
      const int64_t count = five ? 5 : 10;
      const int64_t values = five ? 2 : 5;
      const int64_t go = values;
      const int64_t blank = values + 1;
      std::vector<int64_t> data(step(count));
      for (int64_t k = 0; k < count; ++k) {
        // 5 bits: the 32 patterns in turn (every batch of 32 holds each once).
        data[step(k)] = five ? (index >> (count - 1 - k)) & 1 : uniformBelow(random, 5);
      }
      std::fill(in.begin(), in.end(), blank);
      std::copy(data.begin(), data.end(), in.begin());
      in[step(t - count - 1)] = go;
      for (int64_t k = 0; k < t; ++k) {
        b.s.targets[step(k)] = blank;
        b.s.mask[step(k)] = 1.0f;
      }
      for (int64_t k = 0; k < count; ++k) b.answer(t - count + k, data[step(k)]);
      break;
    }
    case SyntheticTask::None:
    case SyntheticTask::ReverseCopy:
      break;
  }
  return b.s;
}

bool problemSolved(double errorRate, int64_t sequences) {
  return errorRate >= 0.0 && errorRate < LongRangeProblem::kSolvedBelow &&
         sequences >= kMinJudgedSequences;
}

bool validationShowsSolved(double errorRate, int64_t sequences) {
  if (errorRate < 0.0 || sequences < kStopWhenSolvedSequences) return false;
  const double n = static_cast<double>(sequences);
  const auto wrong = static_cast<int64_t>(std::llround(errorRate * n));
  // P(at most `wrong` of n | a true rate of 1%), term by term in logarithms.
  const double p = LongRangeProblem::kSolvedBelow;
  double chance = 0.0;
  for (int64_t k = 0; k <= wrong; ++k) {
    const double i = static_cast<double>(k);
    chance += std::exp(std::lgamma(n + 1) - std::lgamma(i + 1) - std::lgamma(n - i + 1) +
                       i * std::log(p) + (n - i) * std::log1p(-p));
    if (chance > 0.05) return false;
  }
  return true;
}

std::string problemVerdict(double errorRate, int64_t sequences) {
  const char* verdict = sequences < kMinJudgedSequences ? "too few to judge (at least 100 are)"
                        : problemSolved(errorRate, sequences) ? "solved"
                                                              : "not solved (below 1% is)";
  char text[160];
  std::snprintf(text, sizeof text, "%.1f%% of %lld sequence%s wrong: %s", 100.0 * errorRate,
                static_cast<long long>(sequences), sequences == 1 ? "" : "s", verdict);
  return text;
}

}  // namespace mrnn::engine
