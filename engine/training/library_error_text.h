#pragma once

#include <exception>
#include <string>

#include <c10/util/Exception.h>

namespace mrnn::engine {

// What an exception says, fit for a user: LibTorch's errors carry "Exception raised from ...
// frame #0 ..." after their message, which never reaches one; theirs is cut to its first line
// (at most `limit` characters). The engine's own messages pass unchanged.
inline std::string libraryErrorText(const std::exception& error, size_t limit = 200) {
  const auto* torchError = dynamic_cast<const c10::Error*>(&error);
  std::string text = torchError ? torchError->what_without_backtrace() : error.what();
  const size_t raised = text.find("Exception raised from");
  if (!torchError && raised == std::string::npos) return text;
  if (raised != std::string::npos) text.erase(raised);
  const size_t newline = text.find('\n');
  if (newline != std::string::npos) text.erase(newline);
  while (!text.empty() && (text.back() == ' ' || text.back() == '.')) text.pop_back();
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text.empty() ? std::string("no reason given") : text;
}

}  // namespace mrnn::engine
