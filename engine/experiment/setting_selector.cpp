#include "engine/experiment/setting_selector.h"

#include <algorithm>
#include <exception>

#include "engine/io/trimmed.h"

namespace mrnn::engine {

bool sameSettingValue(const std::string& a, const std::string& b) {
  const std::string x = trimmed(a);
  const std::string y = trimmed(b);
  if (x == y) return true;
  try {
    size_t usedX = 0;
    size_t usedY = 0;
    const double first = std::stod(x, &usedX);
    const double second = std::stod(y, &usedY);
    return usedX == x.size() && usedY == y.size() && first == second;
  } catch (const std::exception&) {
    return false;
  }
}

bool settingsMatch(const std::map<std::string, std::string>& selector,
                   const std::vector<AxisSetting>& settings) {
  // Not a structured binding: C++17 lambdas cannot capture one (clang refuses).
  for (const auto& wanted : selector) {
    const auto found =
        std::find_if(settings.begin(), settings.end(),
                     [&wanted](const AxisSetting& setting) { return setting.key == wanted.first; });
    if (found == settings.end() || !sameSettingValue(found->value, wanted.second)) return false;
  }
  return true;
}

std::vector<int64_t> matchingConfigurations(const ExperimentPlan& plan,
                                            const std::map<std::string, std::string>& selector) {
  std::vector<int64_t> found;
  for (const TrialPlan& trial : plan.trials) {
    if (std::find(found.begin(), found.end(), trial.configuration) != found.end()) continue;
    if (settingsMatch(selector, trial.settings)) found.push_back(trial.configuration);
  }
  return found;
}

std::string selectorText(const std::map<std::string, std::string>& selector) {
  std::string text;
  for (const auto& [key, value] : selector) {
    text += (text.empty() ? "" : ", ") + key + ": " + trimmed(value);
  }
  return text;
}

}  // namespace mrnn::engine
