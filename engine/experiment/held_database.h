#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace mrnn::engine {

// How long one of the queue's writes waits for another program's lock on the run database
// before the queue tries the whole turn again later.
inline constexpr int kHeldDatabaseTryMilliseconds = 200;

// What the experiment queue says and decides while another program holds its run database
// (a database browser mid-edit, a sqlite3 shell in a transaction): it waits, saying so once,
// and says when it goes on; after a stop it waits no longer than a second.
class HeldDatabase {
 public:
  explicit HeldDatabase(std::function<void(const std::string&)> log);

  // A turn found the database locked: true to try again later, false when a stop was asked
  // long enough ago that the queue should end without the records it could not make.
  bool wait(bool stopping);
  // A turn went through: says the database is free, when it was held.
  void free();
  void stopAsked() { stopAskedAt_ = Clock::now(); }

 private:
  using Clock = std::chrono::steady_clock;
  std::function<void(const std::string&)> log_;
  bool held_ = false;
  Clock::time_point stopAskedAt_{};
};

}  // namespace mrnn::engine
