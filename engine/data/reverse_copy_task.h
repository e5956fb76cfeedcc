#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/config/data_config.h"
#include "engine/data/corpus.h"
#include "engine/data/vocabulary.h"
#include "engine/io/output_file.h"

namespace mrnn::engine {

// The independent random streams of one seed: the three splits, and one no split uses, for
// analyses that want examples the model has never seen (mrnn analyze copy).
enum class CopyStream { Train = 0, Valid = 1, Test = 2, Fresh = 3 };

// The reverse copy task of Melis et al. 2019 §4.3 as one left-to-right token stream. An
// example is L tokens drawn uniformly and independently from t0 .. t(V-1), the marker <go>,
// the same L tokens in reverse order, and <eos>: 2L + 2 tokens. Examples are concatenated.
// A language model reading this stream plays the paper's encoder while it reads the input
// and its decoder after the marker, the decoder starting from the encoder's last state.
// Only the reversed tokens are scored: the input half is unpredictable by construction, and
// the marker and <eos> come at fixed places.
//
// Generation is deterministic and portable: each stream is a mt19937_64 seeded from
// (seed, stream) by splitmix64, and tokens are drawn with an explicit rejection rule (not
// <random>'s distributions, whose algorithms differ between standard libraries). A stream's
// first k examples are the same whatever the count asked for.
class ReverseCopyTask {
 public:
  // Throws std::invalid_argument for a vocabulary or length below 1.
  explicit ReverseCopyTask(const CopyTaskConfig& config);

  const CopyTaskConfig& config() const { return config_; }
  int64_t tokens() const { return config_.vocabulary; }  // V
  int64_t length() const { return config_.length; }      // L
  int64_t exampleSize() const { return 2 * config_.length + 2; }
  const Vocabulary& vocabulary() const { return vocabulary_; }
  int64_t markerId() const { return config_.vocabulary; }
  int64_t eosId() const { return config_.vocabulary + 1; }

  // The input halves of the first `count` examples of `stream`: count x L ids in [0, V),
  // example by example.
  std::vector<int64_t> drawInputs(CopyStream stream, int64_t count) const;
  // The whole token stream of `count` examples of `stream`, with its target mask: 1 at the
  // L reversed tokens of every example, 0 at the inputs, the marker and <eos>. words is 0
  // (bits per word mean nothing here).
  CorpusSplit split(CopyStream stream, int64_t count) const;
  // The split's examples as text, one example a line ("t3 t7 <go> t7 t3"; the line end is
  // its <eos>), as the word-level readers (format: tokens) read them back.
  std::string text(CopyStream stream, int64_t count) const;

  // The task's vocabulary for V tokens: t0 .. t(V-1), <go>, <eos>, in that order.
  static Vocabulary vocabularyFor(int64_t tokens);
  // V when `vocabulary` is a reverse copy vocabulary (as vocabularyFor builds it), else -1.
  static int64_t tokensOf(const Vocabulary& vocabulary);

  static const char* const kMarker;  // "<go>"

 private:
  CopyTaskConfig config_;
  Vocabulary vocabulary_;
};

// Writes the three splits of `config` as train.txt, valid.txt and test.txt (ReverseCopyTask::
// text) and the vocabulary in id order, one symbol a line, as vocab.txt, into `folder`
// (created if missing). Every file is checked against `rules` (engine/io/output_file.h)
// before any is written; an existing one is replaced only when it holds copy data (or
// `rules.replaceAny`). Returns the paths written. Throws OutputRefused, or std::runtime_error
// naming a path that cannot be written.
std::vector<std::string> writeReverseCopyFiles(const CopyTaskConfig& config,
                                               const std::string& folder, OutputRules rules = {});

}  // namespace mrnn::engine
