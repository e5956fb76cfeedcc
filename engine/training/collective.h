#pragma once

#include <torch/types.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mrnn::engine {

// A collective operation failed because a rank died, hung past the timeout or could not be
// reached; the message names the rank(s) that went missing.
class RankFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The ranks of one data-parallel run, as the training loop sees them: a few collectives on
// tensors. engine/distributed implements it on PyTorch's c10d (Gloo on CPU, NCCL on CUDA), so
// the training code carries no process-group details and tests can give it a fake. Every
// rank calls the same collectives in the same order. All throw RankFailure.
class Collective {
 public:
  virtual ~Collective() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Starts summing `tensor` (contiguous) over the ranks, in place, and returns at once; the
  // returned function blocks until the sum is there. Gradient buckets overlap it with the
  // backward pass.
  virtual std::function<void()> startSum(torch::Tensor tensor) = 0;
  void sum(torch::Tensor tensor) { startSum(std::move(tensor))(); }

  // Every rank's `local` (the same shape on every rank), in rank order.
  virtual std::vector<torch::Tensor> allGather(const torch::Tensor& local) = 0;

  // Rank `root`'s `tensor` into every rank's, in place.
  virtual void broadcast(torch::Tensor tensor, int root) = 0;
};

}  // namespace mrnn::engine
