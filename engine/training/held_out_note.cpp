#include "engine/training/held_out_note.h"

#include <cmath>
#include <cstdio>

namespace mrnn::engine {

namespace {

std::string bits(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

}  // namespace

std::optional<std::string> worseThanUniformNote(double validBits, double trainBits,
                                                int64_t vocabularySize) {
  if (vocabularySize < 2 || !std::isfinite(validBits) || !std::isfinite(trainBits)) return {};
  const double uniform = std::log2(static_cast<double>(vocabularySize));
  if (validBits <= uniform || trainBits >= uniform) return {};
  return "validation reads " + bits(validBits) + " bits/symbol, worse than a uniform guess over " +
         std::to_string(vocabularySize) + " symbols (" + bits(uniform) + "), while training read " +
         bits(trainBits) +
         " since the last validation: the model is confidently wrong on the held-out text. "
         "Validation reads the split as one stream from a zero state, and a model that has "
         "trained on carried states can fall there into a state it never leaves; such a model "
         "is worth retraining (a lower learning rate, init.forget_bias) before its figures are "
         "compared (docs/training.md, \"What a held-out figure measures\")";
}

std::optional<std::string> endedWorseThanUniformNote(double finalBits, int64_t vocabularySize,
                                                     bool usesLearningRate) {
  if (vocabularySize < 2 || !std::isfinite(finalBits) || finalBits <= 0.0) return {};
  const double uniform = std::log2(static_cast<double>(vocabularySize));
  if (finalBits <= uniform) return {};
  return "the run ended at " + bits(finalBits) + " bits/symbol, worse than a uniform guess over " +
         std::to_string(vocabularySize) + " symbols (" + bits(uniform) +
         "): it learned nothing usable" +
         (usesLearningRate ? "; a learning rate far too high is the usual cause" : "");
}

std::string validationCostText(double seconds, double share) {
  if (!(seconds > 0.0)) return {};
  char text[96];
  std::snprintf(text, sizeof text, "(read in %.1f s; validation %.0f%% of the time so far)",
                seconds, 100.0 * share);
  return text;
}

}  // namespace mrnn::engine
