#pragma once

#include <cstdint>

#include "engine/data/token_stream.h"
#include "engine/inference/single_stream_model.h"
#include "engine/models/language_model.h"

namespace mrnn::engine {

// The two roads to the exact one-stream figure of a held-out text on the CPU: the frozen
// single-stream copy reading it once (scoreSingleStream), or B parallel streams through
// LanguageModel::forward, re-read until each starts where its predecessor ended
// (scoreAsOneStream). Streams win when the model forgets its start within a few windows and
// its products are large enough that B streams share each weight read; otherwise the
// single stream does.
enum class HeldOutReading { Fastest, SingleStream, Streams };

// Texts with fewer windows than this per stream are read as one stream without a race.
constexpr int64_t kRaceWindows = 32;

// Races the two on the text itself, on the model in hand: times the single stream over two
// windows and one window of `batch` parallel streams, and reads one stretch of the text from
// two different states to see whether the model forgets within a few windows. Streams only
// when they are faster with a margin for their re-reading. The race costs a few windows of
// the single stream; texts too short to repay it are read as one stream. `frozen` must be a
// current copy of `model` (model in eval mode, no gradients).
HeldOutReading raceReadings(LanguageModel& model, SingleStreamModel& frozen,
                            const TokenStream& tokens, int64_t batch, int64_t bptt);

}  // namespace mrnn::engine
