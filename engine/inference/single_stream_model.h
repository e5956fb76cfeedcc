#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "engine/inference/aligned_floats.h"
#include "engine/inference/frozen_cell.h"
#include "engine/inference/frozen_weights.h"
#include "engine/inference/token_projection.h"
#include "engine/models/language_model.h"
#include "engine/models/output_head.h"

namespace mrnn::engine {

// A frozen, batch-1 copy of a LanguageModel for generating one symbol at a time (sampling,
// branching): what LanguageModel::forward() computes in eval mode for T = 1, B = 1, on raw
// floats. The copy is made once: weight normalisation folded in, each layer's input
// projection folded into per-symbol tables (RecurrentCell::inputAffine()), every buffer
// allocated. step() then runs no LibTorch op and allocates nothing, except with a Mixture of
// Softmaxes head, which runs the model's own head on a view of the top layer's output.
//
// Only float32 CPU models qualify (supports()); the copy does not follow the model, so
// callers check isCurrent() before use and build a new copy when a parameter changed
// (training, dynamic evaluation, loading a checkpoint). Clamps and output masks are read by
// readSettings() and applied as LanguageModel::hidden() applies them.
class SingleStreamModel {
 public:
  // Whether `model` can be copied: every parameter float32 and on the CPU.
  static bool supports(const LanguageModel& model);
  // Per-symbol input tables up to this many floats (128 MB); beyond, a layer multiplies the
  // embedding row per step instead (a 50,000-word vocabulary under a 4 x 1,000-unit LSTM
  // would need 200M floats, most of them never read).
  static constexpr int64_t kDefaultTableFloats = int64_t{32} << 20;

  // Throws std::invalid_argument when !supports(model). Reads the model's current clamps and
  // output masks.
  explicit SingleStreamModel(LanguageModel& model, int64_t maxTableFloats = kDefaultTableFloats);
  SingleStreamModel(const SingleStreamModel&) = delete;
  SingleStreamModel& operator=(const SingleStreamModel&) = delete;
  ~SingleStreamModel();

  int64_t vocab() const { return vocab_; }
  size_t layerCount() const { return layers_.size(); }
  // False once any parameter of `model` was modified, replaced or moved after the copy. It
  // compares a fingerprint of every parameter's contents, not version counters, so changes
  // made through .data() or by loading a checkpoint are seen too; that reads every weight
  // once (~0.6 ms for the 1.3M weights of a 512-unit mLSTM).
  bool isCurrent(const LanguageModel& model) const;
  // Takes `model`'s clamps (LanguageModel::setClamps) and output masks (setOutputMask).
  void readSettings(LanguageModel& model);

  // Zero state, as LanguageModel::initialState(1).
  void reset();
  // Reads `token`, advances every layer one step and returns the log-probabilities of the next
  // symbol [vocab()], valid until the next step(). Throws std::out_of_range for a token
  // outside the vocabulary.
  const float* step(int64_t token);

  // The state as the model's tensors ([1, H] per part, float32) and back.
  ModelState exportState() const;
  void importState(const ModelState& state);
  // Part `part` (0: h, 1: the LSTM memory c) of layer `layer`'s state [H].
  const float* layerState(size_t layer, int part) const;

 private:
  struct Layer {
    std::unique_ptr<FrozenCell> cell;
    TokenProjection token;
    FrozenMatrix fromBelow;  // [K, I]; empty: the identity (the projection is the input)
    AlignedFloats xp;        // [K], this step's input projection
    size_t stateOffset = 0;  // h, then c, in state_
    std::vector<std::pair<int64_t, float>> clamps;
    AlignedFloats mask;    // output mask [H], empty when none
    AlignedFloats masked;  // h * mask, what the next layer reads
  };
  struct ParameterFingerprint {
    const void* impl;
    const void* data;
    int64_t numel;
    uint64_t fingerprint;
  };

  void buildLayers(LanguageModel& model);
  void buildHead(LanguageModel& model);
  TokenProjection tokenProjection(const torch::Tensor& matrix, const torch::Tensor& bias,
                                  const torch::Tensor& embedding, int64_t size);
  float* stateOf(size_t layer, int part);

  int64_t vocab_;
  int64_t maxTableFloats_;
  int64_t inputWidth_;
  bool oneHot_;
  FrozenMatrix embedding_;  // [V, E], kept only when a layer multiplies it per step
  std::vector<Layer> layers_;
  AlignedFloats state_;
  FrozenMatrix outW_;  // softmax head [V, H] (the embedding when tied)
  AlignedFloats outB_;
  std::shared_ptr<OutputHead> mixture_;  // Mixture of Softmaxes: the model's own head
  AlignedFloats logp_;
  bool reversed_ = false;  // the row order of this step's products
  std::vector<ParameterFingerprint> fingerprints_;
};

}  // namespace mrnn::engine
