#include "engine/sampling/completion_builder.h"

#include <algorithm>

namespace mrnn::engine {

CompletionBuilder::CompletionBuilder(const Vocabulary& vocabulary,
                                     std::vector<std::string> stopStrings, bool primeEndsLine)
    : vocabulary_(vocabulary), stopStrings_(std::move(stopStrings)), primeEndsLine_(primeEndsLine) {
  stopStrings_.erase(std::remove(stopStrings_.begin(), stopStrings_.end(), std::string()),
                     stopStrings_.end());
}

std::string CompletionBuilder::pieceFor(const Completion& completion, int64_t id) const {
  if (vocabulary_.level() != InputLevel::Word) return vocabulary_.symbol(id);
  if (id == vocabulary_.eosId()) return "\n";
  const bool lineStart = completion.symbols.empty()
                             ? primeEndsLine_
                             : completion.symbols.back().id == vocabulary_.eosId();
  return lineStart ? vocabulary_.symbol(id) : " " + vocabulary_.symbol(id);
}

void CompletionBuilder::forget(Completion& completion) const {
  if (!completion.symbols.empty()) {
    GeneratedSymbol last = std::move(completion.symbols.back());
    last.alternatives.clear();
    completion.symbols.clear();
    completion.symbols.push_back(std::move(last));
  }
  size_t keep = 0;
  for (const auto& stop : stopStrings_) keep = std::max(keep, stop.size() - 1);
  if (completion.text.size() > keep) completion.text.erase(0, completion.text.size() - keep);
}

bool CompletionBuilder::append(Completion& completion, GeneratedSymbol symbol) const {
  const size_t before = completion.text.size();
  completion.text += symbol.text;
  completion.logProbability += symbol.logProbability;
  completion.symbols.push_back(std::move(symbol));
  // Only occurrences that end inside the new piece count; earlier ones were checked before.
  size_t cut = std::string::npos;
  for (const auto& stop : stopStrings_) {
    const size_t from = before >= stop.size() - 1 ? before - (stop.size() - 1) : 0;
    const size_t at = completion.text.find(stop, from);
    if (at != std::string::npos) cut = std::min(cut, at + stop.size());
  }
  if (cut == std::string::npos) return false;
  completion.text.resize(cut);
  return true;
}

}  // namespace mrnn::engine
