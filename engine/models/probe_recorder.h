#pragma once

#include <torch/types.h>

#include <map>
#include <string>
#include <vector>

namespace mrnn::engine {

// Collects a cell's internals ("probes": gates, intermediate states, the Mogrifier's
// modulated inputs, major and minor h) step by step, for the analysis tools. Values are
// detached, so recording never changes gradients. Names are "<scope><probe>", for example
// "layer1/i".
class ProbeRecorder {
 public:
  void setScope(std::string scope) { scope_ = std::move(scope); }
  void record(const std::string& name, const torch::Tensor& value);

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  // Names in the order they were first recorded.
  const std::vector<std::string>& names() const { return order_; }
  // All recorded steps of one probe, stacked: [T, B, units].
  torch::Tensor stacked(const std::string& name) const;
  size_t steps(const std::string& name) const;
  void clear();

 private:
  std::string scope_;
  std::map<std::string, std::vector<torch::Tensor>> values_;
  std::vector<std::string> order_;
};

}  // namespace mrnn::engine
