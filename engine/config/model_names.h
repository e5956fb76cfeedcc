#pragma once

#include <string>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// "mlstm", "mlstm x 2" or "lstm+mlstm": the layers' cell types at a glance (the runs table's
// model column).
std::string modelTypeSummary(const ModelConfig& model);

// A new run's name when nothing else names it: what tells it from the project's other runs,
// its cells and their sizes ("mlstm 256", "lstm 512 x 2", "lstm 128 + mlstm 256").
std::string defaultRunName(const ModelConfig& model);

}  // namespace mrnn::engine
