// Vocabulary files (engine/interop/import_vocabulary.h): a symbol file and a corpus read in
// order of first appearance, at the character and word levels.
#include "engine/interop/import_vocabulary.h"
#include "engine/interop/named_tensors.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = mrnn::fuzz::asFile(data, size, "vocabulary.txt");
  for (const auto level : {mrnn::engine::InputLevel::Char, mrnn::engine::InputLevel::Word}) {
    try {
      mrnn::engine::vocabularyFromSymbolFile(path, level);
    } catch (const mrnn::engine::InteropError&) {
    }
    try {
      mrnn::engine::vocabularyFromCorpusOrder(path, level);
    } catch (const mrnn::engine::InteropError&) {
    }
  }
  return 0;
}
