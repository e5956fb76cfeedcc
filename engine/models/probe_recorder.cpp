#include "engine/models/probe_recorder.h"

#include <stdexcept>

namespace mrnn::engine {

void ProbeRecorder::record(const std::string& name, const torch::Tensor& value) {
  const std::string key = scope_ + name;
  auto it = values_.find(key);
  if (it == values_.end()) {
    order_.push_back(key);
    it = values_.emplace(key, std::vector<torch::Tensor>{}).first;
  }
  it->second.push_back(value.detach());
}

torch::Tensor ProbeRecorder::stacked(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw std::out_of_range("no probe named '" + name + "' was recorded");
  return torch::stack(it->second, 0);
}

size_t ProbeRecorder::steps(const std::string& name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? 0 : it->second.size();
}

void ProbeRecorder::clear() {
  values_.clear();
  order_.clear();
}

}  // namespace mrnn::engine
