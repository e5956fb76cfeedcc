#pragma once

#include <memory>
#include <mutex>
#include <string>

namespace mrnn::engine {
struct LoadedModel;
}

namespace mrnn::widgets {

// One model an analysis view works on, loaded on the job's engine thread from a checkpoint
// and kept for the next analysis of the same file (loading a large model takes seconds).
// A checkpoint saved again since (a run still training) is loaded afresh.
class ModelSlot {
 public:
  ModelSlot();
  ~ModelSlot();
  ModelSlot(const ModelSlot&) = delete;
  ModelSlot& operator=(const ModelSlot&) = delete;

  // Call from the job's thread only. Throws what loading throws (a located message naming the
  // checkpoint). The model stays owned by the slot; one job at a time may use it.
  engine::LoadedModel& get(const std::string& checkpoint);
  void clear();

 private:
  std::mutex mutex_;
  std::unique_ptr<engine::LoadedModel> model_;
  std::string path_;
  long long modified_ = 0;
};

}  // namespace mrnn::widgets
