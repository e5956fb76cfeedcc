#include "engine/training/validation_book.h"

#include "engine/training/held_out_note.h"

namespace mrnn::engine {

void ValidationBook::restore(double best, int64_t badValidations, double bestErrorRate) {
  best_ = best;
  bad_ = badValidations;
  bestError_ = bestErrorRate;
}

void ValidationBook::addStep(double bits, double seconds) {
  bitsSince_ += bits;
  ++stepsSince_;
  stepSeconds_ += seconds;
}

ValidationBook::Entry ValidationBook::record(double bitsPerSymbol, double errorRate) {
  Entry entry;
  const bool byErrors = errorRate >= 0.0 && bestError_ >= 0.0 && errorRate != bestError_;
  entry.best = best_ <= 0.0 || (byErrors ? errorRate < bestError_ : bitsPerSymbol < best_);
  if (entry.best) {
    best_ = bitsPerSymbol;
    bestError_ = errorRate;
    bad_ = 0;
  } else {
    ++bad_;
  }
  if (stepsSince_ > 0 && !saidUniform_) {
    entry.note = worseThanUniformNote(bitsPerSymbol, bitsSince_ / static_cast<double>(stepsSince_),
                                      vocabulary_);
    saidUniform_ = entry.note.has_value();
  }
  bitsSince_ = 0.0;
  stepsSince_ = 0;
  if (patience_ > 0 && bad_ >= patience_) stopped_ = entry.stop = true;
  return entry;
}

double ValidationBook::addValidationSeconds(double seconds) {
  validSeconds_ += seconds;
  return validSeconds_ / (validSeconds_ + stepSeconds_);
}

}  // namespace mrnn::engine
