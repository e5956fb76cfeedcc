#pragma once

#include <cstdint>

#include "engine/inference/aligned_floats.h"
#include "engine/inference/frozen_weights.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

// The part of a layer's input projection that depends on the current symbol alone: for the
// first layer all of it (its input is the symbol's vector), for a layer above its bias and,
// for a Major-Minor layer whose minor LSTM reads the embedding, that product too. Usually a
// per-symbol table, so a step reads one row instead of multiplying a matrix.
class TokenProjection {
 public:
  // out = bias (zero when `bias` is empty), whatever the symbol.
  static TokenProjection constant(AlignedFloats bias, int64_t size);
  // out = rows[token]: rows is [V, size].
  static TokenProjection table(AlignedFloats rows, int64_t size);
  // out = bias + the one-hot vector of the symbol (size V): a first layer whose projection is
  // the identity reading one-hot input, where a table would be V x V.
  static TokenProjection oneHot(AlignedFloats bias, int64_t size);
  // out = matrix * embedding[token] + bias, for tables too large to keep (matrix [size, E],
  // embedding [V, E], which must outlive this projection).
  static TokenProjection product(FrozenMatrix matrix, AlignedFloats bias,
                                 const FrozenMatrix* embedding);

  int64_t size() const { return size_; }
  bool isTable() const { return kind_ == Kind::Table; }
  // Writes the projection of `token` (already checked against the vocabulary) into out[size].
  void write(int64_t token, float* out, const GemvOptions& run) const;

 private:
  enum class Kind { Constant, Table, OneHot, Product };

  Kind kind_ = Kind::Constant;
  int64_t size_ = 0;
  AlignedFloats values_;  // bias, or table rows
  FrozenMatrix matrix_;
  const FrozenMatrix* embedding_ = nullptr;
};

}  // namespace mrnn::engine
