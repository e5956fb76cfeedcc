#include "engine/training/gradient_buckets.h"

#include <torch/torch.h>

#include <chrono>

namespace mrnn::engine {

GradientBuckets::GradientBuckets(std::vector<torch::Tensor> parameters, Collective& collective,
                                 int64_t bucketBytes)
    : parameters_(std::move(parameters)), collective_(collective) {
  where_.resize(parameters_.size());
  Bucket current;
  int64_t bytes = 0;
  const auto close = [&] {
    if (current.members.empty()) return;
    int64_t total = 0;
    for (const auto& m : current.members) total += m.numel;
    const auto& first = parameters_[current.members.front().parameter];
    current.flat = torch::zeros({total}, first.options().requires_grad(false));
    current.filled.assign(current.members.size(), false);
    buckets_.push_back(std::move(current));
    current = Bucket();
    bytes = 0;
  };
  for (size_t k = parameters_.size(); k-- > 0;) {
    const auto& p = parameters_[k];
    // A bucket holds one dtype on one device; a change closes it.
    if (!current.members.empty()) {
      const auto& first = parameters_[current.members.front().parameter];
      if (first.scalar_type() != p.scalar_type() || first.device() != p.device()) close();
    }
    int64_t offset = 0;
    for (const auto& m : current.members) offset += m.numel;
    current.members.push_back({k, offset, p.numel()});
    where_[k] = {buckets_.size(), current.members.size() - 1};
    bytes += p.numel() * static_cast<int64_t>(p.element_size());
    if (bytes >= bucketBytes) close();
  }
  close();
  for (size_t k = 0; k < parameters_.size(); ++k) {
    hooks_.push_back(parameters_[k].register_hook(
        [this, k](const torch::Tensor& gradient) { onGradient(k, gradient); }));
  }
}

GradientBuckets::~GradientBuckets() {
  for (size_t k = 0; k < hooks_.size(); ++k) parameters_[k].remove_hook(hooks_[k]);
}

void GradientBuckets::arm() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& bucket : buckets_) {
    bucket.ready = 0;
    bucket.filled.assign(bucket.members.size(), false);
    bucket.wait = nullptr;
  }
  startedEarly_ = 0;
  armed_ = true;
}

void GradientBuckets::start(Bucket& bucket) {
  bucket.wait = collective_.startSum(bucket.flat);
}

// The hook sees a leaf's gradient once per backward pass, summed over its every use (the
// recurrent weights' over all time steps), before it is accumulated into .grad.
void GradientBuckets::onGradient(size_t parameter, const torch::Tensor& gradient) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!armed_) return;
  const auto [b, m] = where_[parameter];
  Bucket& bucket = buckets_[b];
  if (bucket.wait || bucket.filled[m]) return;
  const Member& member = bucket.members[m];
  torch::NoGradGuard noGrad;
  bucket.flat.narrow(0, member.offset, member.numel).copy_(gradient.detach().reshape({-1}));
  bucket.filled[m] = true;
  if (++bucket.ready == bucket.members.size()) {
    start(bucket);
    ++startedEarly_;
  }
}

void GradientBuckets::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  armed_ = false;
  torch::NoGradGuard noGrad;
  for (auto& bucket : buckets_) {
    if (bucket.wait) continue;
    for (size_t m = 0; m < bucket.members.size(); ++m) {
      if (bucket.filled[m]) continue;
      const Member& member = bucket.members[m];
      bucket.flat.narrow(0, member.offset, member.numel).zero_();
    }
    start(bucket);
  }
  const auto waitStarted = std::chrono::steady_clock::now();
  for (auto& bucket : buckets_) bucket.wait();
  waitSeconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStarted).count();
  for (auto& bucket : buckets_) {
    for (const Member& member : bucket.members) {
      torch::Tensor& p = parameters_[member.parameter];
      const auto sum = bucket.flat.narrow(0, member.offset, member.numel).view(p.sizes());
      if (p.grad().defined()) {
        p.mutable_grad().copy_(sum);
      } else {
        p.mutable_grad() = sum.clone();
      }
    }
  }
}

}  // namespace mrnn::engine
