#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/experiment/experiment_plan.h"

namespace mrnn::engine {

// Two values of a key as written in YAML: equal as text, or as numbers ("0.10" is "0.1").
bool sameSettingValue(const std::string& a, const std::string& b);

// Whether a configuration's axis settings carry every key path -> value of `selector` (a
// reference's `when`, a claim's side). An empty selector matches every configuration.
bool settingsMatch(const std::map<std::string, std::string>& selector,
                   const std::vector<AxisSetting>& settings);

// The configurations of the plan that `selector` matches, in plan order.
std::vector<int64_t> matchingConfigurations(const ExperimentPlan& plan,
                                            const std::map<std::string, std::string>& selector);

// "model.layers[0].type: mlstm, model.layers[0].rounds: 5", for messages.
std::string selectorText(const std::map<std::string, std::string>& selector);

}  // namespace mrnn::engine
