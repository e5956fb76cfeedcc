#pragma once

#include <string>

#include "engine/data/vocabulary.h"

namespace mrnn::engine {

// A vocabulary from a file of one symbol a line: id = line number from 0; a line that is
// exactly \n, \t, \r or \\ is that character (a symbol file cannot hold them otherwise).
// Throws InteropError naming the file and line of an empty or repeated symbol.
Vocabulary vocabularyFromSymbolFile(const std::string& path, InputLevel level);

// A vocabulary from a training corpus, ids in order of first appearance, as PyTorch's word
// language model example numbers its dictionary: word level, each line's whitespace-separated
// words, then <eos>; char level, each character (UTF-8 code point) including line breaks.
Vocabulary vocabularyFromCorpusOrder(const std::string& path, InputLevel level);

}  // namespace mrnn::engine
