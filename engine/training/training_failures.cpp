#include "engine/training/training_failures.h"

#include <cmath>
#include <new>
#include <stdexcept>

#include <c10/util/Exception.h>

#include "engine/devices/compute_device.h"
#include "engine/training/library_error_text.h"

namespace mrnn::engine {

void requireSoundUpdate(const UpdateResult& result, int64_t step, double rate,
                        bool usesLearningRate) {
  const std::string at = std::to_string(step);
  if (!result.applied) {
    const bool lossBad = !std::isfinite(result.loss);
    const double bad = lossBad ? result.loss : result.gradientNorm;
    throw std::runtime_error(
        std::string(lossBad ? "the training loss" : "the gradient") + " became " +
        (std::isnan(bad) ? "NaN" : "infinite") + " at step " + at +
        (usesLearningRate ? " (learning rate " + std::to_string(rate) + ")" : std::string()) +
        "; the run stopped before the update, so its last good checkpoint is intact. Lower "
        "the learning rate or clip gradients (training.clip_norm)");
  }
  if (!result.weightsFinite) {
    throw std::runtime_error(
        "the update of step " + at + " (learning rate " + std::to_string(rate) +
        ") made weights NaN or infinite; they were not saved (the run's checkpoints, if "
        "any, are from before). A tiny optimizer.epsilon (it divides by the gradient's root "
        "mean square) or too high a learning rate does this");
  }
}

void requireFiniteValidation(double bitsPerSymbol, int64_t step) {
  if (std::isfinite(bitsPerSymbol)) return;
  throw std::runtime_error("validation at step " + std::to_string(step) + " gave " +
                           (std::isnan(bitsPerSymbol) ? "NaN" : "an infinite loss") +
                           "; nothing was saved from this step, so the last good checkpoint "
                           "is intact");
}

std::string trainingFailureText(const std::exception& error, const torch::Device& device,
                                int64_t step, const std::string& sizeText) {
  // LibTorch's CPU allocator fails with a c10::Error of its own ("can't allocate memory").
  const bool outOfMemory =
      dynamic_cast<const c10::OutOfMemoryError*>(&error) != nullptr ||
      dynamic_cast<const std::bad_alloc*>(&error) != nullptr ||
      std::string(error.what()).find("can't allocate memory") != std::string::npos;
  if (!outOfMemory) return libraryErrorText(error);
  // The session's tensors go back to LibTorch's cache when it ends, and the allocator empties
  // that cache before it fails again, so the next run fits.
  return "the " + describeComputeDevice(device) + " ran out of memory at step " +
         std::to_string(step) + " training this model (" + sizeText +
         "); lower the hidden size, batch size or BPTT, or train on a larger GPU";
}

}  // namespace mrnn::engine
