#include "engine/training/held_out_reading.h"

#include <torch/torch.h>

namespace mrnn::engine {

HeldOutReading chooseReading(const LanguageModel& model, int64_t positions, int64_t batch,
                             int64_t bptt) {
  if (batch <= 1 || positions < kStreamsMinWindows * batch * bptt) {
    return HeldOutReading::SingleStream;
  }
  // Every weight but the embedding's is read at each step (the embedding gives one row).
  int64_t read = 0;
  for (const auto& parameter : model.named_parameters()) {
    if (parameter.key().rfind("input.", 0) != 0) read += parameter.value().numel();
  }
  return read * static_cast<int64_t>(sizeof(float)) >= kStreamsFromWeightBytes
             ? HeldOutReading::Streams
             : HeldOutReading::SingleStream;
}

}  // namespace mrnn::engine
