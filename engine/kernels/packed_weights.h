#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/kernels/split_sgemm.h"

namespace mrnn::engine {

struct KernelSet;
struct PackedProduct;

// A weight matrix packed once for many products with few rows. A fused window multiplies B
// rows by the same recurrent weights at each of its T steps; a BLAS packs the weight again
// inside every one of those products (a fifth of the window's time at B = 32), so the window
// packs each weight once, in the active vector kernels' panel layout, and every step runs
// the kernels' tile alone (KernelSet::panelProduct). The products are those of rawSgemm():
// C [m, n] = A [m, k] op(W) (+ C), op(W) being W^T for W [n, k] (`transposed`) or W [k, n],
// with row stride ldw. The source must outlive this object: where packing does not pay
// (fewer than kLeastRowsToPack rows to come, or no vector kernels, MRNN_PACKED_PRODUCTS=0)
// the products read it through the BLAS instead (splitSgemm).
class PackedWeights {
 public:
  static constexpr int64_t kLeastRowsToPack = 64;

  PackedWeights(const float* w, int64_t ldw, bool transposed, int64_t n, int64_t k,
                int64_t rowsToCome);

  bool packed() const { return panels_ != nullptr; }
  int64_t n() const { return n_; }
  int64_t k() const { return k_; }
  // The product as rawSgemm() takes it, reading the source (the fallback's road).
  SgemmCall call(int64_t m, const float* a, int64_t lda, bool accumulate, float* c,
                 int64_t ldc) const;

 private:
  friend bool runPackedProducts(const PackedProduct* products, std::size_t count, int threads);
  struct Free {
    void operator()(float* p) const;
  };
  const float* source_;
  int64_t ldw_;
  bool transposed_;
  int64_t n_, k_;
  const KernelSet* kernels_ = nullptr;
  int64_t width_ = 0;
  std::unique_ptr<float, Free> panels_;
};

// One product of a packed weight: C [m, n] = A [m, k] op(W) (+ C when accumulate).
struct PackedProduct {
  const PackedWeights* weights = nullptr;
  int64_t m = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  bool accumulate = false;
  float* c = nullptr;
  int64_t ldc = 0;
};

// Runs independent products (none reads what another writes) with their panels split over
// `threads` OpenMP threads, each thread an equal share. Products whose weights are not packed
// run through splitSgemm(). Returns false, doing nothing, when one of them would need a CBLAS
// this process does not have; the caller then uses LibTorch.
bool runPackedProducts(const PackedProduct* products, std::size_t count, int threads);

// op(W)'s columns as ceil(n / width) panels of k rows of `width` floats, zero past n: the
// layout KernelSet::panelProduct reads (`panels` holds ceil(n / width) * k * width floats).
void packPanels(const float* w, int64_t ldw, bool transposed, int64_t n, int64_t k, int64_t width,
                float* panels);

// Whether packed products are on (MRNN_PACKED_PRODUCTS=0 in the environment turns them off,
// for comparisons; setPackedProductsEnabled for tests).
bool packedProductsEnabled();
void setPackedProductsEnabled(bool enabled);

}  // namespace mrnn::engine
