#include "engine/config/device_name.h"

#include <cctype>

namespace mrnn::engine {

std::optional<DeviceName> parseDeviceName(const std::string& text) {
  if (text == "cpu") return DeviceName{};
  if (text == "cuda") return DeviceName{true, -1};
  const std::string prefix = "cuda:";
  if (text.size() <= prefix.size() || text.compare(0, prefix.size(), prefix) != 0) return {};
  const std::string digits = text.substr(prefix.size());
  if (digits.size() > 4) return {};
  for (char ch : digits) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return {};
  }
  return DeviceName{true, std::stoi(digits)};
}

std::string deviceNameProblem(const std::string& where, const std::string& text) {
  return where + " is cpu, cuda or cuda:N (a GPU's number), not '" + text + "'";
}

bool namesCudaDevice(const std::string& text) {
  return text.rfind("cuda", 0) == 0;
}

}  // namespace mrnn::engine
