#pragma once

#include <string>
#include <vector>

#include "engine/data/vocabulary.h"
#include "engine/sampling/completion.h"

namespace mrnn::engine {

// Appends generated symbols to a completion: the symbol's text at the vocabulary's level
// (words separated by spaces, <eos> as a line break, as Vocabulary::decode() writes them)
// and the stop-string check. Shared by sampling and beam search so both produce the same
// text for the same symbols.
class CompletionBuilder {
 public:
  // primeEndsLine: the prime is empty or ends with a line break (no space before a word).
  CompletionBuilder(const Vocabulary& vocabulary, std::vector<std::string> stopStrings,
                    bool primeEndsLine);

  const std::string& symbolName(int64_t id) const { return vocabulary_.symbol(id); }
  // The text `id` adds after `completion`.
  std::string pieceFor(const Completion& completion, int64_t id) const;
  // Appends `symbol` (its text already set by pieceFor()). Returns true when the text now
  // contains a stop string, in which case the text is cut right after it.
  bool append(Completion& completion, GeneratedSymbol symbol) const;
  // Drops what a streamed completion no longer needs, so that its memory stays bounded
  // however long it runs: all symbols but the last (pieceFor reads it) and the text but the
  // tail a stop string could still end in.
  void forget(Completion& completion) const;

 private:
  const Vocabulary& vocabulary_;
  std::vector<std::string> stopStrings_;
  bool primeEndsLine_;
};

}  // namespace mrnn::engine
