#include "engine/distributed/c10d_collective.h"

#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#include <torch/cuda.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <type_traits>
#include <utility>

namespace mrnn::engine {
namespace {

std::string seconds(std::chrono::milliseconds timeout) {
  return std::to_string(timeout.count() / 1000) + " s";
}

std::string firstLine(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

bool loopback(const std::string& address) {
  return address == "localhost" || address.rfind("127.", 0) == 0 || address == "::1";
}

// PyTorch 2.4 on serves the store through libuv unless told otherwise (the field first came in
// 2.3); a LibTorch built without libuv (Debian's) refuses to. Turns libuv off where the options
// have the switch and it was on; says whether it did.
template <typename Options, typename = void>
struct HasLibUvSwitch : std::false_type {};
template <typename Options>
struct HasLibUvSwitch<Options, std::void_t<decltype(std::declval<Options&>().useLibUV)>>
    : std::true_type {};

template <typename Options>
bool withoutLibUv(Options& options) {
  if constexpr (HasLibUvSwitch<Options>::value) {
    if (!options.useLibUV) return false;
    options.useLibUV = false;
    return true;
  } else {
    return false;
  }
}

}  // namespace

// PyTorch 2 made Gloo's and NCCL's groups c10d::Backend subclasses (a ProcessGroup now wraps
// backends); PyTorch 1.x derives them from ProcessGroup. Both bases offer the collectives used
// here with the same signatures, so hold whichever the backends derive from.
using GroupBase = std::conditional_t<std::is_base_of_v<c10d::Backend, c10d::ProcessGroupGloo>,
                                     c10d::Backend, c10d::ProcessGroup>;

struct C10dCollective::Group {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<GroupBase> group;
  std::string backend;
};

C10dCollective::C10dCollective(const RankEnvironment& environment,
                               std::chrono::milliseconds timeout, bool cuda)
    : environment_(environment), timeout_(timeout), group_(std::make_unique<Group>()) {
  const std::string where =
      environment_.masterAddress + ":" + std::to_string(environment_.masterPort);
  try {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(environment_.masterPort);
    options.isServer = environment_.rank == 0 && !environment_.agentStore;
    options.numWorkers =
        environment_.agentStore ? c10::nullopt : c10::optional<std::size_t>(environment_.size);
    options.waitWorkers = !environment_.agentStore;
    options.timeout = timeout_;
    c10::intrusive_ptr<c10d::Store> store;
    try {
      store = c10::make_intrusive<c10d::TCPStore>(environment_.masterAddress, options);
    } catch (const c10::Error& error) {
      const bool libUvMissing = std::string(error.what()).find("libuv") != std::string::npos;
      if (!libUvMissing || !withoutLibUv(options)) throw;
      store = c10::make_intrusive<c10d::TCPStore>(environment_.masterAddress, options);
    }
    if (!environment_.storePrefix.empty()) {
      store = c10::make_intrusive<c10d::PrefixStore>(environment_.storePrefix, store);
    }
    group_->store = store;
  } catch (const std::exception& error) {
    throw RankFailure("could not meet the other " + std::to_string(environment_.size - 1) +
                      (environment_.size == 2 ? " rank" : " ranks") + " at " + where + " within " +
                      seconds(timeout_) + " (" + environment_.launcher +
                      "): " + firstLine(error.what()));
  }
  try {
    if (cuda) {
#ifdef USE_C10D_NCCL
      auto options = c10d::ProcessGroupNCCL::Options::create();
      options->timeout = timeout_;
      group_->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(group_->store, environment_.rank,
                                                                  environment_.size, options);
      group_->backend = "nccl";
      // The rank's own GPU: device 0 where the launcher shows each rank one (--nproc, torchrun
      // with CUDA_VISIBLE_DEVICES set per rank, Slurm), its local rank's where it sees all.
      const auto gpus = static_cast<int>(std::max<size_t>(1, torch::cuda::device_count()));
      staging_ =
          torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(environment_.localRank % gpus));
#else
      throw std::runtime_error(
          "this LibTorch has no NCCL; data-parallel training on CUDA needs a CUDA LibTorch "
          "built with NCCL (docs/distributed.md)");
#endif
    } else {
      auto options = c10d::ProcessGroupGloo::Options::create(timeout_);
      const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
      if (interface && *interface) {
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
      } else if (loopback(environment_.masterAddress)) {
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
      } else {
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
      }
      options->threads = 2;
      group_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(group_->store, environment_.rank,
                                                                  environment_.size, options);
      group_->backend = "gloo";
    }
  } catch (const RankFailure&) {
    throw;
  } catch (const std::exception& error) {
    fail("joining the process group", error.what());
  }
}

C10dCollective::~C10dCollective() = default;

std::string C10dCollective::backend() const {
  return group_->backend;
}

torch::Tensor C10dCollective::onGroupDevice(const torch::Tensor& tensor) const {
  if (!staging_ || tensor.is_cuda()) return tensor;
  return tensor.to(*staging_).contiguous();
}

std::function<void()> C10dCollective::startSum(torch::Tensor tensor) {
  const int64_t number = ++operations_;
  c10::intrusive_ptr<c10d::Work> work;
  const torch::Tensor staged = onGroupDevice(tensor);
  std::vector<torch::Tensor> tensors{staged};
  try {
    work = group_->group->allreduce(tensors);
  } catch (const std::exception& error) {
    fail("summing gradients (collective #" + std::to_string(number) + ")", error.what());
  }
  return [this, work, number, tensor, staged] {
    try {
      work->wait(timeout_);
    } catch (const std::exception& error) {
      fail("summing gradients (collective #" + std::to_string(number) + ")", error.what());
    }
    if (!staged.is_same(tensor)) tensor.copy_(staged);  // in place, as the caller expects
  };
}

std::vector<torch::Tensor> C10dCollective::allGather(const torch::Tensor& local) {
  const int64_t number = ++operations_;
  const torch::Tensor staged = onGroupDevice(local.contiguous());
  std::vector<std::vector<torch::Tensor>> out(1);
  for (int r = 0; r < environment_.size; ++r) out[0].push_back(torch::empty_like(staged));
  std::vector<torch::Tensor> in{staged};
  try {
    group_->group->allgather(out, in)->wait(timeout_);
  } catch (const std::exception& error) {
    fail("gathering (collective #" + std::to_string(number) + ")", error.what());
  }
  if (staged.device() != local.device()) {
    for (auto& piece : out[0]) piece = piece.to(local.device());
  }
  return out[0];
}

void C10dCollective::broadcast(torch::Tensor tensor, int root) {
  const int64_t number = ++operations_;
  const torch::Tensor staged = onGroupDevice(tensor);
  std::vector<torch::Tensor> tensors{staged};
  c10d::BroadcastOptions options;
  options.rootRank = root;
  try {
    group_->group->broadcast(tensors, options)->wait(timeout_);
  } catch (const std::exception& error) {
    fail("broadcasting (collective #" + std::to_string(number) + ")", error.what());
  }
  if (!staged.is_same(tensor)) tensor.copy_(staged);
}

void C10dCollective::fail(const std::string& operation, const std::string& cause) {
  const int me = environment_.rank;
  const std::string detail = operation + " failed: " + firstLine(cause);
  // The ranks still alive mark themselves; after a grace period the ones unmarked are named.
  try {
    group_->store->set("mrnn/alive/" + std::to_string(me), std::vector<uint8_t>{1});
  } catch (const std::exception&) {
    if (environment_.agentStore) {
      throw RankFailure("the rendezvous store of " + environment_.launcher + " is gone; " + detail);
    }
    throw RankFailure(
        "rank 0 is gone (killed, or stopped answering; it served the run's rendezvous "
        "store); " +
        detail);
  }
  std::this_thread::sleep_for(std::min(timeout_, std::chrono::milliseconds(3000)));
  std::string missing;
  int count = 0;
  for (int r = 0; r < environment_.size; ++r) {
    if (r == me) continue;
    bool alive = false;
    try {
      alive = group_->store->check({"mrnn/alive/" + std::to_string(r)});
    } catch (const std::exception&) {
      alive = false;
    }
    if (alive) continue;
    missing += (missing.empty() ? "" : ", ") + std::to_string(r);
    ++count;
  }
  if (count == 0) throw RankFailure(detail);
  throw RankFailure(std::string(count == 1 ? "rank " : "ranks ") + missing +
                    (count == 1 ? " is" : " are") + " gone (killed, or no answer within the " +
                    seconds(timeout_) + " timeout); " + detail);
}

}  // namespace mrnn::engine
