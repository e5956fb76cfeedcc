#include "engine/data/stream_batcher.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace mrnn::engine {
namespace {
const char* const kStreamBatcherTag = "mrnn-batcher";
constexpr double kPi = 3.14159265358979323846;
}  // namespace

StreamBatcher::StreamBatcher(const TokenStream& tokens, const BatcherOptions& options,
                             const TokenStream& targetMask)
    : tokens_(tokens),
      targetMask_(targetMask),
      options_(options),
      streamLength_(0),
      random_(options.seed) {
  if (targetMask_.size() > 0 && targetMask_.size() != tokens_.size())
    throw std::invalid_argument("batcher: the target mask has " +
                                std::to_string(targetMask_.size()) + " entries for " +
                                std::to_string(tokens_.size()) + " symbols");
  if (options.batch < 1 || options.bptt < 1 || options.predictLast < 0)
    throw std::invalid_argument(
        "batcher: batch and bptt must be at least 1, predict_last 0 or more");
  streamLength_ = (tokens_.size() - 1) / options.batch;
  if (tokens_.size() < 2 || streamLength_ < 1)
    throw std::invalid_argument("batcher: " + std::to_string(tokens_.size()) +
                                " symbols are too few for " + std::to_string(options.batch) +
                                " streams (at least batch + 1 are needed)");
}

int64_t StreamBatcher::windowsPerEpoch() const {
  return std::max<int64_t>(1, (streamLength_ + options_.bptt - 1) / options_.bptt);
}

double StreamBatcher::epochProgress() const {
  return static_cast<double>(position_) / static_cast<double>(streamLength_);
}

// Uniform in [0, 1) from the top 53 bits. The distributions are written out here rather than
// taken from <random>, whose algorithms differ between standard libraries and may cache
// values outside the generator: the generator state alone must determine the next windows.
double StreamBatcher::uniform() {
  return static_cast<double>(random_() >> 11) * 0x1.0p-53;
}

// AWD-LSTM (Merity et al. 2018): bptt with probability 0.95, else bptt / 2; then a length
// drawn from N(that, 5), rounded, at least 5 (and never past the end of the streams).
int64_t StreamBatcher::nextLength() {
  const int64_t remaining = streamLength_ - position_;
  if (!options_.randomLength) return std::min(options_.bptt, remaining);
  const double base = uniform() < 0.95 ? static_cast<double>(options_.bptt)
                                       : static_cast<double>(options_.bptt) / 2.0;
  const double u1 = 1.0 - uniform();  // (0, 1]: the logarithm stays finite
  const double u2 = uniform();
  const double normal = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
  const auto length = std::max<int64_t>(5, std::llround(base + 5.0 * normal));
  return std::min(length, remaining);
}

Window StreamBatcher::next() {
  if (position_ >= streamLength_) {
    position_ = 0;
    ++epoch_;
  }
  const int64_t steps = nextLength();
  const int64_t batch = options_.batch;
  Window window;
  window.steps = steps;
  window.batch = batch;
  window.epochStart = position_ == 0;
  window.inputs.resize(static_cast<size_t>(steps * batch));
  window.targets.resize(static_cast<size_t>(steps * batch));
  std::vector<int64_t> row(static_cast<size_t>(steps + 1));
  for (int64_t b = 0; b < batch; ++b) {
    tokens_.copy(b * streamLength_ + position_, steps + 1, row.data());
    for (int64_t t = 0; t < steps; ++t) {
      window.inputs[static_cast<size_t>(t * batch + b)] = row[static_cast<size_t>(t)];
      window.targets[static_cast<size_t>(t * batch + b)] = row[static_cast<size_t>(t + 1)];
    }
  }
  if (targetMask_.size() > 0) {
    // The mask belongs to the targets: token position + 1 + t of stream b.
    window.lossMask.resize(static_cast<size_t>(steps * batch));
    for (int64_t b = 0; b < batch; ++b) {
      targetMask_.copy(b * streamLength_ + position_ + 1, steps, row.data());
      for (int64_t t = 0; t < steps; ++t)
        window.lossMask[static_cast<size_t>(t * batch + b)] =
            row[static_cast<size_t>(t)] != 0 ? 1.0f : 0.0f;
    }
  }
  if (options_.predictLast > 0) {
    // Sutskever §5.2: only the last k predictions of each window count (and, with a target
    // mask, only those of them it keeps: the two multiply).
    if (window.lossMask.empty()) window.lossMask.assign(static_cast<size_t>(steps * batch), 1.0f);
    const int64_t first = std::max<int64_t>(0, steps - options_.predictLast);
    std::fill(window.lossMask.begin(), window.lossMask.begin() + first * batch, 0.0f);
  }
  position_ += steps;
  return window;
}

std::string StreamBatcher::saveState() const {
  std::ostringstream out;
  out << kStreamBatcherTag << " 1 " << options_.batch << " " << streamLength_ << " " << position_
      << " " << epoch_ << "\n"
      << random_;
  return out.str();
}

void StreamBatcher::restoreState(const std::string& state) {
  std::istringstream in(state);
  std::string tag;
  int version = 0;
  int64_t batch = 0;
  int64_t length = 0;
  int64_t position = -1;
  int64_t epoch = -1;
  in >> tag >> version >> batch >> length >> position >> epoch;
  if (!in || tag != kStreamBatcherTag || version != 1 || position < 0 || position > length ||
      epoch < 0)
    throw std::invalid_argument("the checkpoint's place in the training data cannot be read");
  if (batch != options_.batch) {
    throw std::invalid_argument("the checkpoint's place is in a batch of " + std::to_string(batch) +
                                " rows; this one has " + std::to_string(options_.batch));
  }
  if (length != streamLength_) {
    throw std::invalid_argument(
        "the training corpus has changed length (the checkpoint's place is in rows of " +
        std::to_string(length) + " symbols; the corpus now gives rows of " +
        std::to_string(streamLength_) + ")");
  }
  std::mt19937_64 random;
  in >> random;
  if (!in)
    throw std::invalid_argument("the checkpoint's place in the training data cannot be read");
  position_ = position;
  epoch_ = epoch;
  random_ = random;
}

}  // namespace mrnn::engine
