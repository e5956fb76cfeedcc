#pragma once

#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "engine/training/collective.h"

namespace mrnn::engine {

// Sums the gradients of a data-parallel step over the ranks in buckets of about
// `bucketBytes`, each started as soon as the backward pass has produced all of its
// gradients, so the communication overlaps the rest of the backward pass (the output layer's
// gradients are ready long before the recurrent weights' at the first time step). The
// parameters are bucketed in reverse order, the order the backward pass finishes them.
// Usage per step: arm(), backward, finish() (then every parameter's grad is the sum).
class GradientBuckets {
 public:
  GradientBuckets(std::vector<torch::Tensor> parameters, Collective& collective,
                  int64_t bucketBytes = int64_t{4} << 20);
  ~GradientBuckets();  // removes the hooks
  GradientBuckets(const GradientBuckets&) = delete;
  GradientBuckets& operator=(const GradientBuckets&) = delete;

  void arm();
  // Starts the buckets the backward pass did not complete (parameters it did not reach
  // count as zero gradients), waits for every sum and writes the sums into the grads.
  void finish();
  int64_t bucketCount() const { return static_cast<int64_t>(buckets_.size()); }
  // Buckets started from inside the backward pass in the last step (overlapped).
  int64_t startedEarly() const { return startedEarly_; }
  // Seconds finish() waited for the other ranks in the last step.
  double waitSeconds() const { return waitSeconds_; }

 private:
  struct Member {
    size_t parameter = 0;
    int64_t offset = 0;
    int64_t numel = 0;
  };
  struct Bucket {
    torch::Tensor flat;
    std::vector<Member> members;
    std::vector<bool> filled;
    size_t ready = 0;
    std::function<void()> wait;  // set once started
  };

  void onGradient(size_t parameter, const torch::Tensor& gradient);
  void start(Bucket& bucket);

  std::vector<torch::Tensor> parameters_;
  Collective& collective_;
  std::vector<Bucket> buckets_;
  std::vector<std::pair<size_t, size_t>> where_;  // parameter -> (bucket, member)
  std::vector<unsigned> hooks_;
  std::mutex mutex_;
  bool armed_ = false;
  int64_t startedEarly_ = 0;
  double waitSeconds_ = 0.0;
};

}  // namespace mrnn::engine
