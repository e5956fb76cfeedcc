#include "engine/inference/token_projection.h"

#include <algorithm>
#include <utility>

#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

TokenProjection TokenProjection::constant(AlignedFloats bias, int64_t size) {
  TokenProjection projection;
  projection.kind_ = Kind::Constant;
  projection.size_ = size;
  projection.values_ = std::move(bias);
  return projection;
}

TokenProjection TokenProjection::table(AlignedFloats rows, int64_t size) {
  TokenProjection projection;
  projection.kind_ = Kind::Table;
  projection.size_ = size;
  projection.values_ = std::move(rows);
  return projection;
}

TokenProjection TokenProjection::oneHot(AlignedFloats bias, int64_t size) {
  TokenProjection projection = constant(std::move(bias), size);
  projection.kind_ = Kind::OneHot;
  return projection;
}

TokenProjection TokenProjection::product(FrozenMatrix matrix, AlignedFloats bias,
                                         const FrozenMatrix* embedding) {
  TokenProjection projection = constant(std::move(bias), matrix.rows);
  projection.kind_ = Kind::Product;
  projection.matrix_ = std::move(matrix);
  projection.embedding_ = embedding;
  return projection;
}

void TokenProjection::write(int64_t token, float* out, const GemvOptions& run) const {
  switch (kind_) {
    case Kind::Table: {
      const float* row = values_.data() + token * size_;
      std::copy(row, row + size_, out);
      return;
    }
    case Kind::Constant:
    case Kind::OneHot:
      if (values_.empty()) {
        std::fill(out, out + size_, 0.0f);
      } else {
        std::copy(values_.begin(), values_.end(), out);
      }
      if (kind_ == Kind::OneHot) out[token] += 1.0f;
      return;
    case Kind::Product: {
      const float* e = embedding_->data() + token * embedding_->cols;
      gemv(matrix_.data(), matrix_.rows, matrix_.cols, e, out, false, run);
      if (!values_.empty()) {
        for (int64_t k = 0; k < size_; ++k) out[k] += values_[k];
      }
      return;
    }
  }
}

}  // namespace mrnn::engine
