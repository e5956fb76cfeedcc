#include "engine/training/training_preflight.h"

#include <stdexcept>
#include <utility>

namespace mrnn::engine {

void checkHeldOutSplits(const Corpus& corpus, const DataConfig& data,
                        const std::function<void(const std::string&)>& log) {
  const std::pair<const char*, const CorpusSplit*> splits[] = {{"valid", &corpus.valid},
                                                               {"test", &corpus.test}};
  for (const auto& [name, split] : splits) {
    if (split->unknownSymbols > 0)
      log(std::string(name) + ": " + std::to_string(split->unknownSymbols) +
          " symbols the training split lacks are read as <unk> (data.vocabulary: train_unk)");
    const int64_t symbols = split->tokens.size();
    if (symbols >= 2) continue;
    const std::string what = std::string("the ") + name + " split has " + std::to_string(symbols) +
                             (symbols == 1 ? " symbol" : " symbols");
    const std::string need =
        "; a run validates and tests, which needs at least 2 symbols (one to predict the next)";
    if (data.valid.empty()) {
      throw std::runtime_error("data." + std::string(name) + "_fraction: " + what + need +
                               ": give a fraction that leaves 2 or more, or valid and test files");
    }
    throw std::runtime_error(split->source + ": " + what + need);
  }
}

}  // namespace mrnn::engine
