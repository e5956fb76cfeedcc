#pragma once

#include <cstdint>

#include "engine/data/long_range_problem.h"
#include "engine/models/language_model.h"
#include "engine/training/metrics.h"

namespace mrnn::engine {

class JobContext;

// A long-range problem's held-out sequences scored: each read alone from the initial state,
// `batch` side by side, dropout off. LossFigures::nats is the mean loss over the counted
// steps (negative log-likelihood; for the addition problem ½ the squared error) and
// errorRate the share of sequences the model gets wrong by the problem's criterion (a judged
// step's argmax not its target; the addition problem: |prediction − sum| >= 0.04). The
// model's mode is as before afterwards. `job` (may be null) gets progress and may cancel.
LossFigures scoreProblem(LanguageModel& model, const LongRangeProblem& problem, ProblemSplit split,
                         int64_t batch, const torch::Device& device, JobContext* job = nullptr);

}  // namespace mrnn::engine
