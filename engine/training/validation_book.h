#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mrnn::engine {

// A run's validations as its loop keeps them: the best figure and the validations since it
// improved (early stopping), the training bits since the last validation (for the note that
// a run is no better than a uniform guess, said once a run), and this session's time in
// steps and in validations (the share the monitor shows).
class ValidationBook {
 public:
  // What one validation means for the run.
  struct Entry {
    bool best = false;                // the best so far: the run keeps this model
    bool stop = false;                // `patience` validations without improvement: early stopping
    std::optional<std::string> note;  // worse than a uniform guess (once a run)
  };

  // `patience` 0: no early stopping. `vocabulary`: the symbols a uniform guess chooses among.
  ValidationBook(int64_t patience, int64_t vocabulary)
      : patience_(patience), vocabulary_(vocabulary) {}

  // A resumed run's best (bits, and a problem's error rate; -1: none) and validations since it
  // improved.
  void restore(double best, int64_t badValidations, double bestErrorRate = -1.0);
  // A training step of `bits` per symbol that took `seconds`.
  void addStep(double bits, double seconds);
  // `errorRate` >= 0: a long-range problem's share of sequences wrong. Its best model is the
  // one that gets the fewest wrong (bits per symbol break ties): for the random permutation
  // problem the bits are mostly the unpredictable symbols, not the answer.
  Entry record(double bitsPerSymbol, double errorRate = -1.0);
  // The validation's time; returns the validations' share of this session's time.
  double addValidationSeconds(double seconds);

  // A long-range problem solved with training.stop_when_solved: the run ends here.
  void stopSolved() { stopped_ = solved_ = true; }

  double best() const { return best_; }
  int64_t badValidations() const { return bad_; }
  double bestErrorRate() const { return bestError_; }
  bool stopped() const { return stopped_; }
  bool solved() const { return solved_; }

 private:
  int64_t patience_ = 0;
  int64_t vocabulary_ = 0;
  double best_ = 0.0;
  double bestError_ = -1.0;  // the best model's error rate; -1: none (text, or not yet)
  int64_t bad_ = 0;
  bool stopped_ = false;
  bool solved_ = false;
  double bitsSince_ = 0.0;
  int64_t stepsSince_ = 0;
  bool saidUniform_ = false;
  double stepSeconds_ = 0.0;
  double validSeconds_ = 0.0;
};

}  // namespace mrnn::engine
