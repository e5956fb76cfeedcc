#include "engine/kernels/packed_weights.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "engine/kernels/column_split.h"
#include "engine/kernels/vector_kernels.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace mrnn::engine {

namespace {

// As splitSgemm's: below this many multiply-adds a thread, one thread does it all.
constexpr double kLeastWorkPerThread = 256.0 * 1024.0;

bool enabledByEnvironment() {
  const char* value = std::getenv("MRNN_PACKED_PRODUCTS");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

std::atomic<bool> enabled{enabledByEnvironment()};

int64_t panelCount(int64_t n, int64_t width) {
  return (n + width - 1) / width;
}

}  // namespace

void packPanels(const float* w, int64_t ldw, bool transposed, int64_t n, int64_t k, int64_t width,
                float* panels) {
  for (int64_t q = 0; q < panelCount(n, width); ++q) {
    const int64_t column = q * width;
    const int64_t columns = std::min(width, n - column);
    float* panel = panels + q * k * width;
    for (int64_t kk = 0; kk < k; ++kk) {
      float* row = panel + kk * width;
      if (transposed) {  // op(W) [kk, column + j] = W [column + j, kk]
        for (int64_t j = 0; j < columns; ++j) row[j] = w[(column + j) * ldw + kk];
      } else {
        std::memcpy(row, w + kk * ldw + column, static_cast<size_t>(columns) * sizeof(float));
      }
      std::fill(row + columns, row + width, 0.0f);
    }
  }
}

bool packedProductsEnabled() {
  return enabled;
}

void setPackedProductsEnabled(bool on) {
  enabled = on;
}

void PackedWeights::Free::operator()(float* p) const {
  std::free(p);
}

PackedWeights::PackedWeights(const float* w, int64_t ldw, bool transposed, int64_t n, int64_t k,
                             int64_t rowsToCome)
    : source_(w), ldw_(ldw), transposed_(transposed), n_(n), k_(k) {
  const KernelSet& kernels = kernelsFor(activeKernelIsa());
  if (!enabled || rowsToCome < kLeastRowsToPack || kernels.panelProduct == nullptr || n <= 0 ||
      k <= 0) {
    return;
  }
  kernels_ = &kernels;
  width_ = kernels.panelWidth();
  // 64-byte aligned (a cache line; every vector width).
  const auto bytes = static_cast<size_t>(panelCount(n, width_) * k * width_) * sizeof(float);
  auto* data = static_cast<float*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
  if (data == nullptr) throw std::bad_alloc();
  panels_.reset(data);
  packPanels(w, ldw, transposed, n, k, width_, data);
}

SgemmCall PackedWeights::call(int64_t m, const float* a, int64_t lda, bool accumulate, float* c,
                              int64_t ldc) const {
  SgemmCall call;
  call.transposeB = transposed_;
  call.m = m;
  call.n = n_;
  call.k = k_;
  call.a = a;
  call.lda = lda;
  call.b = source_;
  call.ldb = ldw_;
  call.beta = accumulate ? 1.0f : 0.0f;
  call.c = c;
  call.ldc = ldc;
  return call;
}

bool runPackedProducts(const PackedProduct* products, std::size_t count, int threads) {
  // Every weight packed for the kernels active now, or none of it through the panels.
  const KernelSet* kernels = count > 0 ? products[0].weights->kernels_ : nullptr;
  bool panels = kernels != nullptr && kernels == &kernelsFor(activeKernelIsa());
  for (std::size_t i = 0; i < count && panels; ++i) {
    panels = products[i].weights->packed() && products[i].weights->kernels_ == kernels;
  }
  if (!panels) {
    std::vector<SgemmCall> calls;
    for (std::size_t i = 0; i < count; ++i) {
      const auto& p = products[i];
      calls.push_back(p.weights->call(p.m, p.a, p.lda, p.accumulate, p.c, p.ldc));
    }
    return splitSgemm(calls.data(), calls.size(), threads);
  }
  std::vector<PanelProduct> work(count);
  std::vector<ColumnRange> ranges(count);
  double total = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto& p = products[i];
    const PackedWeights& w = *p.weights;
    work[i] = {p.m, w.n_, w.k_, p.a, p.lda, w.panels_.get(), p.c, p.ldc, p.accumulate};
    ranges[i] = {static_cast<double>(p.m * w.k_ * w.width_), panelCount(w.n_, w.width_)};
    total += ranges[i].workPerColumn * static_cast<double>(ranges[i].columns);
  }
  const auto runPart = [&](int part, int parts) {
    forEachPiece(
        ranges.data(), count, part, parts, 1,
        [&](std::size_t i, int64_t from, int64_t to) { kernels->panelProduct(work[i], from, to); });
  };
#ifdef _OPENMP
  const int parts =
      static_cast<int>(std::min<double>(threads, std::floor(total / kLeastWorkPerThread)));
  if (parts >= 2 && !omp_in_parallel()) {
#pragma omp parallel num_threads(parts)
    runPart(omp_get_thread_num(), omp_get_num_threads());
    return true;
  }
#endif
  (void)threads;
  runPart(0, 1);
  return true;
}

}  // namespace mrnn::engine
