#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/config/project_file.h"
#include "engine/data/corpus.h"
#include "engine/data/vocabulary.h"

namespace mrnn::engine {

// The held-out text an analysis runs on when the user names none: split `which` ("valid" or
// "test") of `dataProject`'s corpus, which must have the vocabulary the model was trained
// with. Throws std::invalid_argument for another split name and std::runtime_error when the
// project has no data section, the split is empty or its vocabulary differs (the message
// says which); DataError from reading the corpus.
CorpusSplit heldOutSplit(const Project& dataProject, const Vocabulary& modelVocabulary,
                         const std::string& which);

// A file read with the model's vocabulary (in the project's corpus format, else detected).
CorpusSplit textFileSplit(const Project& dataProject, const Vocabulary& modelVocabulary,
                          const std::string& path);

// The first `maxSymbols` ids of a split (0: all of them).
std::vector<int64_t> splitIds(const CorpusSplit& split, int64_t maxSymbols = 0);

}  // namespace mrnn::engine
