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

// What a run that ends no better than a uniform guess says (a learning rate far too high, a
// model that diverged and came back finite): its final figure, bits per symbol, against
// log2 V; the learning rate is named as the usual cause only where the update rule has one
// (Hessian-free has none). Empty when the figure beats the guess or is not a figure (0,
// infinite, V below 2).
std::optional<std::string> endedWorseThanUniformNote(double finalBits, int64_t vocabularySize,
                                                     bool usesLearningRate);

// What a validation cost, for the line that reports it: "(read in 6.2 s; validation 4% of the
// time so far)". Empty when the cost is unknown (seconds 0).
std::string validationCostText(double seconds, double share);

}  // namespace mrnn::engine
