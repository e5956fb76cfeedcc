#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mrnn::engine {

// What the trainer tells a researcher when a validation reads worse than a uniform guess over
// the vocabulary (log2 V bits per symbol) while training, over the steps since the previous
// validation, read better: the model is confidently wrong on held-out text, which is almost
// never overfitting and most often a state it enters from the zero start the split is read
// from and never leaves (docs/training.md, "What a held-out figure measures"). Empty when the
// figures say nothing of the kind (either one not finite, no training steps, V below 2).
std::optional<std::string> worseThanUniformNote(double validBits, double trainBits,
                                                int64_t vocabularySize);

}  // namespace mrnn::engine
