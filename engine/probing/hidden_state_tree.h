#pragma once

#include <string>

#include "engine/data/vocabulary.h"
#include "engine/probing/gate_analysis.h"
#include "engine/probing/tree_result.h"

namespace mrnn::engine {

class LanguageModel;  // engine/models/language_model.h

// Grows the tree of possible futures from `context`: depth 1 takes every symbol (up to
// firstLevelCap, most probable first), deeper levels the top-k children of each node or as
// many as reach `mass`. Each level's children run through the model as one batch, the
// parents' states repeated along the batch dimension. Gradients off, eval mode for the
// duration. Throws std::invalid_argument for an empty context, bad options or a tree over
// maxNodes.
TreeResult expandTree(LanguageModel& model, const Vocabulary& vocabulary,
                      const std::string& context, const TreeOptions& options = {},
                      JobContext* job = nullptr);

}  // namespace mrnn::engine
