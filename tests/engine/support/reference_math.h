#pragma once

// Plain double-precision vectors and matrices for the reference computations: loops only,
// no LibTorch, so the check is independent of the code under test.

#include <cmath>
#include <cstdint>
#include <vector>

namespace mrnn::test {

using Vec = std::vector<double>;

struct Mat {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<double> values;  // row-major

  double at(int64_t r, int64_t c) const { return values[static_cast<size_t>(r * cols + c)]; }
  // Rows [first, first + count) as their own matrix.
  Mat rowRange(int64_t first, int64_t count) const {
    Mat out{count, cols, {}};
    out.values.assign(values.begin() + first * cols, values.begin() + (first + count) * cols);
    return out;
  }
};

inline Vec matVec(const Mat& m, const Vec& x) {
  Vec out(static_cast<size_t>(m.rows), 0.0);
  for (int64_t r = 0; r < m.rows; ++r) {
    double sum = 0.0;
    for (int64_t c = 0; c < m.cols; ++c) sum += m.at(r, c) * x[static_cast<size_t>(c)];
    out[static_cast<size_t>(r)] = sum;
  }
  return out;
}

inline Mat matMul(const Mat& a, const Mat& b) {
  Mat out{a.rows, b.cols, std::vector<double>(static_cast<size_t>(a.rows * b.cols), 0.0)};
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t k = 0; k < a.cols; ++k)
      for (int64_t c = 0; c < b.cols; ++c)
        out.values[static_cast<size_t>(r * b.cols + c)] += a.at(r, k) * b.at(k, c);
  return out;
}

inline Vec add(const Vec& a, const Vec& b) {
  Vec out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
  return out;
}
inline Vec add(const Vec& a, const Vec& b, const Vec& c) {
  return add(add(a, b), c);
}

inline Vec mul(const Vec& a, const Vec& b) {
  Vec out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] * b[i];
  return out;
}

inline Vec scale(double s, const Vec& a) {
  Vec out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = s * a[i];
  return out;
}

inline Vec sigmoid(const Vec& a) {
  Vec out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = 1.0 / (1.0 + std::exp(-a[i]));
  return out;
}

inline Vec tanhOf(const Vec& a) {
  Vec out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = std::tanh(a[i]);
  return out;
}

inline Vec slice(const Vec& a, int64_t first, int64_t count) {
  return Vec(a.begin() + first, a.begin() + first + count);
}

inline Vec concat(const Vec& a, const Vec& b) {
  Vec out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

// GRU-style interpolation (1 - z) * h_prev + z * j.
inline Vec interpolate(const Vec& z, const Vec& hPrev, const Vec& j) {
  Vec out(z.size());
  for (size_t i = 0; i < z.size(); ++i) out[i] = (1.0 - z[i]) * hPrev[i] + z[i] * j[i];
  return out;
}

}  // namespace mrnn::test
