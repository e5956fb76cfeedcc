#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/config/data_config.h"
#include "engine/data/vocabulary.h"

namespace mrnn::engine {

enum class ProblemSplit { Train = 0, Valid = 1, Test = 2 };

// One sequence of a long-range problem, as a language model reads it: at step t it reads
// inputs[t] (and values[t]) and is scored on targets[t] (or targetValues[t]) where mask[t] is
// 1. Sequences shorter than the window are padded with steps that are never scored.
struct ProblemSequence {
  std::vector<int64_t> inputs;
  std::vector<int64_t> targets;
  std::vector<float> mask;
  std::vector<float> values;        // addition: the number read at each step
  std::vector<float> targetValues;  // addition: the sum, at the scored step
  // The steps the problem's success criterion judges (the answer's; memorisation: the
  // recalled symbols): the sequence is right when every one of them is.
  std::vector<int64_t> judged;
};

// Martens & Sutskever's (2011) long-range problems as generated data, defined as in Sutskever's
// HF-RNN release (after Hochreiter & Schmidhuber 1997). T is data.problem.length; positions
// written "p% of T" are ⌊p·T/100⌋.
// - addition: a number U(0, 1) and a marker each step; two steps are marked, one in [1%, 10%)
//   of T and one in [10%, 50%); the first step and the third before the last carry the signal
//   marker; the sequence ends at a length drawn from [T, 1.1 T) and its last step is scored on
//   the sum of the two marked numbers (a real target: output.type linear, squared error). Right
//   when |prediction − sum| < 0.04. A constant guess (1) is right 7.8% of the time.
// - multiplication: addition's sequences with the product as the target; right within 0.04.
//   A constant guess (0.04) is right 28% of the time (the product's density is −ln z).
// - xor: a random bit and a marker each step; two bits marked, one in [1%, 10%) of T and one
//   in [15%, 25%); signals as in addition; lengths in [T/2, 0.55 T) (the release's); the
//   answer is the symbol "0" or "1", the XOR of the marked bits (a guess: 50% wrong).
// - temporal_order_2bit: noise symbols a-d; X or Y at a step in [1%, 10%] and one in
//   [40%, 50%]; B first and E at the last step of a length in [T, 1.1 T), where the class of
//   the pair (XX, XY, YX, YY) is the target. temporal_order_3bit: three, in [1%, 10%],
//   [30%, 40%] and [50%, 60%], eight classes.
// - random_permutation: one of two symbols, then T − 1 symbols drawn from 98 others; every
//   next symbol is a target, and the last target is the first symbol. Judged at the last step.
// - memorization_5bit / memorization_20bit: 5 binary (10 five-valued) symbols, blanks, a go
//   signal, blanks; the targets are blanks but for the last 5 (10) steps, which recall the
//   symbols. Every step is scored; the recalled ones are judged.
// A problem is solved when fewer than 1% of fresh test sequences are wrong. Classes and bits
// alternate with the sequence's index, so every batch is balanced, as in the release.
class LongRangeProblem {
 public:
  // Throws std::invalid_argument, naming data.problem.length, for a T too short for the
  // problem, or for a task that is not a long-range problem.
  LongRangeProblem(SyntheticTask task, const ProblemConfig& config);

  SyntheticTask task() const { return task_; }
  const ProblemConfig& config() const { return config_; }
  const Vocabulary& vocabulary() const { return vocabulary_; }
  // The steps of every window: the longest sequence's length.
  int64_t windowLength() const { return window_; }
  bool realValued() const { return problemIsRealValued(task_); }
  bool readsValues() const { return problemReadsValues(task_); }
  int64_t sequences(ProblemSplit split) const;

  // Sequence `index` of `split`, the same on every machine for a seed. Training reads indices
  // past the split's count too (each epoch reads fresh sequences).
  ProblemSequence sequence(ProblemSplit split, int64_t index) const;

  static constexpr double kSolvedBelow = 0.01;        // error rate that counts as solved
  static constexpr double kAdditionTolerance = 0.04;  // Hochreiter & Schmidhuber's

 private:
  SyntheticTask task_;
  ProblemConfig config_;
  Vocabulary vocabulary_;
  int64_t window_ = 0;
};

// Held-out sequences a verdict needs: below 1% wrong means none wrong of fewer than 100, which
// a guess gets as often as not on one or two sequences.
inline constexpr int64_t kMinJudgedSequences = 100;

// Whether an error rate over `sequences` held-out sequences solves the problem (below
// LongRangeProblem::kSolvedBelow, over at least kMinJudgedSequences).
bool problemSolved(double errorRate, int64_t sequences);
// Whether a validation shows the problem solved, not a lucky draw: a model that gets exactly 1%
// wrong would do as well on `sequences` sequences at most 5% of the time (a one-sided binomial
// test). training.stop_when_solved ends a run on it: at "below 1%" alone, a model near 1% ended
// its run on one lucky validation and failed its test (0.8% of 500, then 1.2% of 1,000). Needs
// kStopWhenSolvedSequences (0 wrong of 500, at most 1; of 1,000, at most 4).
bool validationShowsSolved(double errorRate, int64_t sequences);
// "0.4% of 1000 sequences wrong: solved", "37.5% of 1000 sequences wrong: not solved (below
// 1% is)", "0.0% of 1 sequence wrong: too few to judge (at least 100 are needed)".
std::string problemVerdict(double errorRate, int64_t sequences);

}  // namespace mrnn::engine
