#include "engine/config/config_error.h"

#include <utility>

namespace mrnn::engine {
namespace {

std::string compose(const std::string& file, int line, int column, const std::string& key,
                    const std::string& message) {
  std::string out = file.empty() ? std::string("<text>") : file;
  if (line > 0) {
    out += ":" + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
  }
  out += ": ";
  if (!key.empty()) out += key + ": ";
  return out + message;
}

}  // namespace

ConfigError::ConfigError(std::string file, int line, int column, std::string key,
                         std::string message)
    : std::runtime_error(compose(file, line, column, key, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      key_(std::move(key)),
      message_(std::move(message)) {}

}  // namespace mrnn::engine
