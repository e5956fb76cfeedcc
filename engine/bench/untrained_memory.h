#pragma once

#include <cstdint>
#include <vector>

#include "engine/config/data_config.h"

namespace mrnn::engine {

// What an untrained tanh RNN keeps of the symbols a memorisation problem's sequence begins
// with, before any training: one linear readout, shared by every recalled step (as the model's
// own output layer is) and fitted by least squares on the hidden states of some sequences,
// reads the recalled symbols of others. Where it reads them all, the memory is there from the
// start and training has only to find the readout; where it reads them at chance, training
// must build the memory too (docs/performance.md, "20-bit memorisation: what the untrained
// network keeps").
struct UntrainedMemoryOptions {
  SyntheticTask problem = SyntheticTask::Memorization20;
  int64_t length = 100;  // T
  int64_t hidden = 100;
  bool orthogonal = false;  // the recurrent weights: scaled orthogonal, or sparse (15 a unit)
  double recurrentScale = 1.2;
  double inputScale = 1.0;
  uint64_t seed = 1;            // the weights' and the sequences'
  int64_t fitSequences = 2000;  // the readout's least squares
  int64_t testSequences = 1000;
};

struct UntrainedMemory {
  std::vector<double> wrongAt;  // each recalled step's share of test sequences read wrong
  double sequencesWrong = 0.0;  // share of test sequences with any recalled symbol wrong
  // The readout's Frobenius norm: large where the symbols' traces are faint beside the rest
  // of the state, which the output layer must then grow to read.
  double readoutNorm = 0.0;
  double chance = 0.0;  // a recalled symbol's share wrong by a guess
};

// Throws std::invalid_argument for a problem that is not a memorisation problem, or sizes out
// of range.
UntrainedMemory measureUntrainedMemory(const UntrainedMemoryOptions& options);

}  // namespace mrnn::engine
