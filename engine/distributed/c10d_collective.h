#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "engine/distributed/rank_environment.h"
#include "engine/training/collective.h"

namespace mrnn::engine {

// One rank of a data-parallel run on PyTorch's c10d: a TCPStore for the rendezvous (served
// by rank 0, or by torchrun's agent when it says so), then a Gloo process group on CPU or an
// NCCL one on CUDA (where this LibTorch has it). Every collective waits at most `timeout`;
// when one fails, the ranks still alive mark themselves in the store, and the error names the
// ranks that did not (killed, hung or unreachable), or rank 0 when the store it served is gone.
class C10dCollective : public Collective {
 public:
  // Blocks until every rank has joined (or `timeout` passes: then throws RankFailure).
  C10dCollective(const RankEnvironment& environment, std::chrono::milliseconds timeout, bool cuda);
  ~C10dCollective() override;

  int rank() const override { return environment_.rank; }
  int size() const override { return environment_.size; }
  std::function<void()> startSum(torch::Tensor tensor) override;
  std::vector<torch::Tensor> allGather(const torch::Tensor& local) override;
  void broadcast(torch::Tensor tensor, int root) override;

  // "gloo" or "nccl".
  std::string backend() const;

 private:
  struct Group;
  // Turns a collective's failure into a RankFailure naming the missing ranks.
  [[noreturn]] void fail(const std::string& operation, const std::string& cause);
  // NCCL takes only CUDA tensors, while the loop also sums and gathers small host ones (the
  // step's agreement, generator states, the run's id, barriers): those travel through this
  // rank's GPU and come back. Gloo takes both as they are.
  torch::Tensor onGroupDevice(const torch::Tensor& tensor) const;

  RankEnvironment environment_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<Group> group_;
  int64_t operations_ = 0;  // for messages: which collective failed
  // NCCL: the GPU host tensors are staged on (onGroupDevice); unset for Gloo.
  std::optional<torch::Device> staging_;
};

}  // namespace mrnn::engine
