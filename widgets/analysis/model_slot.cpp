#include "widgets/analysis/model_slot.h"

#include <filesystem>
#include <stdexcept>

#include "engine/analysis/loaded_model.h"

namespace mrnn::widgets {

ModelSlot::ModelSlot() = default;
ModelSlot::~ModelSlot() = default;

engine::LoadedModel& ModelSlot::get(const std::string& checkpoint) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (checkpoint.empty()) throw std::runtime_error("no checkpoint chosen: train a run first");
  std::error_code error;
  const auto stamp = std::filesystem::last_write_time(checkpoint, error);
  if (error) throw std::runtime_error(checkpoint + ": " + error.message());
  const long long modified = static_cast<long long>(stamp.time_since_epoch().count());
  if (!model_ || path_ != checkpoint || modified != modified_) {
    model_.reset();
    auto loaded =
        std::make_unique<engine::LoadedModel>(engine::loadModelFromCheckpoint(checkpoint));
    model_ = std::move(loaded);
    path_ = checkpoint;
    modified_ = modified;
  }
  return *model_;
}

void ModelSlot::clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  model_.reset();
  path_.clear();
}

}  // namespace mrnn::widgets
