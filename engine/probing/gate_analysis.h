#pragma once

#include <functional>
#include <string>

#include "engine/data/vocabulary.h"
#include "engine/probing/gate_report.h"

namespace mrnn::engine {

class LanguageModel;  // engine/models/language_model.h

// Progress in [0, 1] and a phase; an AnalysisJob passes JobContext::report, which throws to
// cancel.
class JobContext;

struct GateOptions {
  bool float16 = false;  // store traces as binary16 (statistics still from float32)
  int64_t window = 256;  // steps per forward call: progress (and cancelling) between windows
};

// Runs `model` (batch 1, from its initial state, gradients off, eval mode for the duration)
// over `text` and records every probe of every layer at every step, with statistics for
// each. Throws std::invalid_argument for an empty text or a symbol outside the vocabulary.
GateReport analyzeGates(LanguageModel& model, const Vocabulary& vocabulary, const std::string& text,
                        const GateOptions& options = {}, JobContext* job = nullptr);

}  // namespace mrnn::engine
