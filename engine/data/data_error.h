#pragma once

#include <stdexcept>

namespace mrnn::engine {

// A corpus problem: the message names the file and what is wrong with it (missing, empty,
// binary read as text, invalid UTF-8 at byte N, ...).
class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reading stopped because the caller asked (MappedFile::checkStop): no problem of the data's.
class ReadingStopped : public std::runtime_error {
 public:
  ReadingStopped() : std::runtime_error("reading the corpus was stopped") {}
};

}  // namespace mrnn::engine
