// A corpus read by each scanner (engine/data/corpus.h): characters, words and bytes, split
// into training, validation and test text.
#include <stdexcept>

#include "engine/data/corpus.h"
#include "engine/data/data_error.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mrnn::engine::DataConfig config;
  config.train = mrnn::fuzz::asFile(data, size, "corpus.txt");
  for (const auto level : {mrnn::engine::InputLevel::Char, mrnn::engine::InputLevel::Word,
                           mrnn::engine::InputLevel::Byte}) {
    try {
      mrnn::engine::loadCorpus(config, level, "");
    } catch (const mrnn::engine::DataError&) {
    }
  }
  return 0;
}
