#pragma once

#include <cstdint>

#include "engine/data/token_stream.h"
#include "engine/inference/single_stream_model.h"
#include "engine/models/language_model.h"

namespace mrnn::engine {

// The two roads to the exact one-stream figure of a held-out text on the CPU: the frozen
// single-stream copy reading it once (scoreSingleStream), or B parallel streams through
// LanguageModel::forward, re-read until each starts where its predecessor ended
// (scoreAsOneStream). They agree to float rounding on a model that forgets its start, but a
// model whose state amplifies rounding (an mRNN on a long text) gives figures that differ in
// the fourth decimal, so the road is chosen from the model and the text alone, never from
// timings: the same checkpoint and text give the same figure on a busy or an idle machine.
enum class HeldOutReading { Chosen, SingleStream, Streams };

// Texts with fewer windows than this per stream are read as one stream.
constexpr int64_t kStreamsMinWindows = 32;
// The weights one symbol reads (recurrent layers and output, in bytes) from which B streams,
// sharing each weight read, repay their re-reading; below it a single stream reads them from
// cache.
constexpr int64_t kStreamsFromWeightBytes = int64_t{8} << 20;

// The road for a text of `positions` targets read in `batch` streams of `bptt`: Streams for
// large models on long texts, the single stream otherwise.
HeldOutReading chooseReading(const LanguageModel& model, int64_t positions, int64_t batch,
                             int64_t bptt);

}  // namespace mrnn::engine
