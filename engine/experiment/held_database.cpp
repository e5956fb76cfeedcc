#include "engine/experiment/held_database.h"

#include <utility>

namespace mrnn::engine {

HeldDatabase::HeldDatabase(std::function<void(const std::string&)> log) : log_(std::move(log)) {}

bool HeldDatabase::wait(bool stopping) {
  if (!held_) {
    log_(
        "another program holds the run database locked; the queue waits for it, and the "
        "running trials train on");
    held_ = true;
  }
  return !stopping || Clock::now() - stopAskedAt_ < std::chrono::milliseconds(800);
}

void HeldDatabase::free() {
  if (!held_) return;
  held_ = false;
  log_("the run database is free again; the queue goes on");
}

}  // namespace mrnn::engine
