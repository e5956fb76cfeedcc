#pragma once

#include <torch/nn/module.h>

#include <string>

#include "engine/models/window_masks.h"

namespace mrnn::engine {

// A recurrent weight of G blocks, each rows x cols (for example the four gate matrices of an
// LSTM). It owns the regularisers that act on recurrent weights only:
// - weight normalisation (Salimans & Kingma; Krause §4.2): W = g * v / ||v||, per row, with
//   parameters "<name>" (v) and "<name>_g" (g, initialised to ||v|| so W starts as v);
// - DropConnect ("weight drop", Merity et al.): one mask per window, scaled by 1/(1-p).
// prepare() computes the effective weight once per window; cells then read current().
class RecurrentWeight {
 public:
  enum class Layout { Stacked, Batched };  // [G*rows, cols] or [G, rows, cols]

  RecurrentWeight(torch::nn::Module& owner, const std::string& name, int64_t blocks, int64_t rows,
                  int64_t cols, Layout layout, bool weightNorm);

  // Scaled orthogonal blocks (Saxe et al.; Krause uses scale 0.7), or uniform +-scale/sqrt(cols).
  void initOrthogonal(double scale);
  void initUniform(double scale);
  // Sparse (Martens 2010; Sutskever et al. 2011 §5.2): in each block every row (a unit's
  // incoming weights) has `connections` nonzero entries at random columns (all of them when
  // there are fewer), drawn N(0, (scale/√connections)²), so that the block's spectral radius
  // is about `scale`; the rest are zero.
  void initSparse(double scale, int64_t connections);

  // `masks`: the window's DropConnect mask is replayed from (or recorded into) them.
  void prepare(bool training, double dropProbability, WindowMasks* masks = nullptr);
  const torch::Tensor& current() const { return current_; }

  const std::string& name() const { return name_; }
  int64_t weightCount() const { return blocks_ * rows_ * cols_; }

 private:
  void resetGain();

  std::string name_;
  int64_t blocks_;
  int64_t rows_;
  int64_t cols_;
  Layout layout_;
  torch::Tensor v_;  // [G, rows, cols]
  torch::Tensor g_;  // [G, rows, 1] when normalised
  torch::Tensor current_;
};

}  // namespace mrnn::engine
