#include "engine/analysis/held_out_text.h"

#include <algorithm>
#include <stdexcept>

namespace mrnn::engine {

CorpusSplit heldOutSplit(const Project& dataProject, const Vocabulary& modelVocabulary,
                         const std::string& which) {
  if (which != "valid" && which != "test") {
    throw std::invalid_argument("unknown split '" + which + "' (valid or test)");
  }
  if (!dataProject.hasData) {
    throw std::runtime_error("the project has no 'data:' section: choose a text file");
  }
  if (isLongRangeProblem(dataProject.data.synthetic)) {
    throw std::runtime_error(
        "the project's data is a long-range problem (" +
        syntheticTaskName(dataProject.data.synthetic) +
        "): its sequences are read one by one, not as text; `mrnn eval` and the runs table "
        "score them (error rate). Choose a text file to read here");
  }
  Corpus corpus = loadCorpus(dataProject.data, dataProject.model.input.level, dataProject.folder);
  if (corpus.vocabulary.fingerprint() != modelVocabulary.fingerprint()) {
    throw std::runtime_error(
        "the model was trained on another vocabulary than this project's corpus (" +
        vocabularyDifference(modelVocabulary, corpus.vocabulary) +
        "; first the model's, then the corpus's): choose a text file instead");
  }
  CorpusSplit split = which == "valid" ? std::move(corpus.valid) : std::move(corpus.test);
  if (split.tokens.size() < 2) {
    throw std::runtime_error("the project's " + which + " split is empty: choose a text file");
  }
  return split;
}

CorpusSplit textFileSplit(const Project& dataProject, const Vocabulary& modelVocabulary,
                          const std::string& path) {
  const auto format =
      resolveCorpusFormat(dataProject.hasData ? dataProject.data.format : CorpusFormat::Auto, path);
  return loadSplit(path, format, modelVocabulary);
}

std::vector<int64_t> splitIds(const CorpusSplit& split, int64_t maxSymbols) {
  int64_t n = split.tokens.size();
  if (maxSymbols > 0) n = std::min(n, maxSymbols);
  std::vector<int64_t> ids(static_cast<size_t>(n));
  if (n > 0) split.tokens.copy(0, n, ids.data());
  return ids;
}

}  // namespace mrnn::engine
