#pragma once

#include <stdexcept>
#include <string>

namespace mrnn::engine {

// A configuration problem, located: file, 1-based line and column, and the key path
// (for example "model.layers[1].hidden_size"). what() gives all of it in one line.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string file, int line, int column, std::string key, std::string message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 0 when unknown
  int column() const { return column_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int column_;
  std::string key_;
  std::string message_;
};

}  // namespace mrnn::engine
