#include "engine/inference/single_stream_model.h"

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/inference/frozen_cell_factory.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {
namespace {

AlignedFloats toFloats(const torch::Tensor& tensor) {
  const auto values = tensor.detach().to(torch::kFloat).contiguous();
  const float* data = values.data_ptr<float>();
  return AlignedFloats(data, data + values.numel());
}

FrozenMatrix toMatrix(const torch::Tensor& tensor) {
  FrozenMatrix matrix;
  matrix.rows = tensor.size(0);
  matrix.cols = tensor.size(1);
  matrix.values = toFloats(tensor);
  return matrix;
}

bool allZero(const torch::Tensor& tensor) {
  return !tensor.defined() || tensor.count_nonzero().item<int64_t>() == 0;
}

// A 64-bit fingerprint of a tensor's bytes, in four interleaved lanes (one multiply per
// word, ~0.6 ms for 5 MB). Every step is a bijection of the lane's value, so a change in any
// single word always changes the result.
uint64_t fingerprint(const torch::Tensor& tensor) {
  const auto values = tensor.detach().contiguous();
  const auto* bytes = static_cast<const unsigned char*>(values.data_ptr());
  const size_t size = static_cast<size_t>(values.numel()) * values.element_size();
  constexpr uint64_t kOdd = 0x9E3779B97F4A7C15ull;
  uint64_t lanes[4] = {1, 2, 3, 4};
  auto mix = [](uint64_t lane, uint64_t word) {
    const uint64_t m = (lane ^ word) * kOdd;
    return (m << 31) | (m >> 33);
  };
  size_t at = 0;
  for (; at + 32 <= size; at += 32) {
    for (int k = 0; k < 4; ++k) {
      uint64_t word;
      std::memcpy(&word, bytes + at + 8 * k, 8);
      lanes[k] = mix(lanes[k], word);
    }
  }
  for (; at < size; ++at) lanes[0] = mix(lanes[0], bytes[at]);
  return mix(mix(mix(mix(size, lanes[0]), lanes[1]), lanes[2]), lanes[3]);
}

torch::Tensor parameter(const LanguageModel& model, const std::string& name) {
  const auto parameters = model.named_parameters();
  const auto* found = parameters.find(name);
  return found ? found->detach() : torch::Tensor();
}

}  // namespace

bool SingleStreamModel::supports(const LanguageModel& model) {
  for (const auto& parameter : model.parameters()) {
    if (parameter.scalar_type() != torch::kFloat || !parameter.device().is_cpu()) return false;
  }
  return true;
}

SingleStreamModel::SingleStreamModel(LanguageModel& model, int64_t maxTableFloats)
    : vocab_(model.vocab()),
      maxTableFloats_(maxTableFloats),
      inputWidth_(model.config().inputWidth(model.vocab())),
      oneHot_(model.config().input.embeddingSize <= 0) {
  if (!supports(model)) {
    throw std::invalid_argument(
        "the single-stream copy needs a float32 model on the CPU; use LanguageModel::forward");
  }
  torch::NoGradGuard noGrad;
  for (const auto& p : model.parameters()) {
    fingerprints_.push_back({p.unsafeGetTensorImpl(), p.data_ptr(), p.numel(), fingerprint(p)});
  }
  buildLayers(model);
  buildHead(model);
  logp_.resize(vocab_);
  readSettings(model);
  reset();
}

SingleStreamModel::~SingleStreamModel() = default;

// The symbol-dependent part `matrix * vector(token) + bias` (matrix [size, inputWidth_],
// undefined for the identity), as a table when that is affordable.
TokenProjection SingleStreamModel::tokenProjection(const torch::Tensor& matrix,
                                                   const torch::Tensor& bias,
                                                   const torch::Tensor& embedding, int64_t size) {
  const torch::Tensor b = allZero(bias) ? torch::Tensor() : bias;
  AlignedFloats biasValues = b.defined() ? toFloats(b) : AlignedFloats{};
  if (oneHot_) {
    // matrix * one-hot = a column of the matrix: the table is the transpose, no larger than
    // the matrix itself. The identity would be a V x V table: write the one-hot vector.
    if (!matrix.defined()) return TokenProjection::oneHot(std::move(biasValues), size);
    return TokenProjection::table(toFloats(b.defined() ? matrix.t() + b : matrix.t()), size);
  }
  if (!matrix.defined()) {  // the embedding itself: a copy of the model's own table
    return TokenProjection::table(toFloats(b.defined() ? embedding + b : embedding), size);
  }
  if (vocab_ * size > maxTableFloats_) {
    if (embedding_.values.empty()) embedding_ = toMatrix(embedding);
    return TokenProjection::product(toMatrix(matrix), std::move(biasValues), &embedding_);
  }
  // Row by row what projectInputs() computes for each symbol, in chunks of ~4M floats.
  AlignedFloats rows(static_cast<size_t>(vocab_ * size));
  const int64_t chunk = std::max<int64_t>(1, (int64_t{1} << 22) / std::max<int64_t>(size, 1));
  for (int64_t start = 0; start < vocab_; start += chunk) {
    const int64_t count = std::min(chunk, vocab_ - start);
    const auto slice = embedding.narrow(0, start, count);
    const auto part =
        (b.defined() ? torch::addmm(b, slice, matrix.t()) : torch::mm(slice, matrix.t()))
            .contiguous();
    std::copy(part.data_ptr<float>(), part.data_ptr<float>() + count * size,
              rows.begin() + start * size);
  }
  return TokenProjection::table(std::move(rows), size);
}

void SingleStreamModel::buildLayers(LanguageModel& model) {
  const torch::Tensor embedding = parameter(model, "input.embedding");
  int64_t width = inputWidth_;  // what the layer reads from below
  size_t offset = 0;
  for (size_t i = 0; i < model.layerCount(); ++i) {
    RecurrentCell& cell = model.layer(i);
    Layer layer;
    layer.cell = freezeCell(cell);
    const int64_t size = layer.cell->projectedSize();
    const InputAffine affine = cell.inputAffine();
    const auto fromInput = affine.fromInput.defined() ? affine.fromInput.detach() : torch::Tensor();
    const auto fromEmbedding =
        affine.fromEmbedding.defined() ? affine.fromEmbedding.detach() : torch::Tensor();
    const auto bias = affine.bias.defined() ? affine.bias.detach() : torch::Tensor();
    if ((fromInput.defined() ? fromInput.size(0) : width) != size) {
      throw std::logic_error("layer " + std::to_string(i + 1) +
                             ": the input projection's width disagrees with the frozen cell's");
    }
    if (i == 0) {
      // The first layer reads the symbol's vector both as x and as the embedding.
      torch::Tensor matrix = fromInput;
      if (fromEmbedding.defined()) {
        matrix = (matrix.defined() ? matrix : torch::eye(size)) + fromEmbedding;
      }
      layer.token = tokenProjection(matrix, bias, embedding, size);
    } else {
      layer.token =
          fromEmbedding.defined()
              ? tokenProjection(fromEmbedding, bias, embedding, size)
              : TokenProjection::constant(allZero(bias) ? AlignedFloats{} : toFloats(bias), size);
      if (fromInput.defined()) layer.fromBelow = toMatrix(fromInput);
    }
    layer.xp.resize(size);
    layer.stateOffset = offset;
    offset += static_cast<size_t>(layer.cell->statePartCount() * layer.cell->hiddenSize());
    width = layer.cell->hiddenSize();
    layers_.push_back(std::move(layer));
  }
  state_.resize(offset);
}

void SingleStreamModel::buildHead(LanguageModel& model) {
  const OutputConfig& output = model.config().output;
  if (output.kind == OutputKind::MixtureOfSoftmaxes) {
    mixture_ = std::dynamic_pointer_cast<OutputHead>(model.named_children()["output"]);
    if (!mixture_) throw std::logic_error("the model has no output head");
    return;
  }
  const auto weight = parameter(model, output.tieEmbeddings ? "input.embedding" : "output.W");
  outW_ = toMatrix(weight);
  outB_ = toFloats(parameter(model, "output.b"));
}

bool SingleStreamModel::isCurrent(const LanguageModel& model) const {
  const auto parameters = model.parameters();
  if (parameters.size() != fingerprints_.size()) return false;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const auto& p = parameters[i];
    const auto& seen = fingerprints_[i];
    if (p.unsafeGetTensorImpl() != seen.impl || p.data_ptr() != seen.data ||
        p.numel() != seen.numel || p.scalar_type() != torch::kFloat ||
        fingerprint(p) != seen.fingerprint) {
      return false;
    }
  }
  return true;
}

void SingleStreamModel::readSettings(LanguageModel& model) {
  for (size_t i = 0; i < layers_.size(); ++i) {
    Layer& layer = layers_[i];
    layer.clamps.clear();
    for (const auto& clamp : model.clamps()) {
      if (clamp.layer == i) layer.clamps.emplace_back(clamp.unit, static_cast<float>(clamp.value));
    }
    const auto mask = model.outputMask(i);
    if (mask.defined()) {
      layer.mask = toFloats(mask.reshape({-1}));
      layer.masked.resize(layer.mask.size());
    } else {
      layer.mask.clear();
      layer.masked.clear();
    }
  }
}

void SingleStreamModel::reset() {
  std::fill(state_.begin(), state_.end(), 0.0f);
}

float* SingleStreamModel::stateOf(size_t layer, int part) {
  const Layer& l = layers_.at(layer);
  return state_.data() + l.stateOffset + static_cast<size_t>(part * l.cell->hiddenSize());
}

const float* SingleStreamModel::layerState(size_t layer, int part) const {
  const Layer& l = layers_.at(layer);
  if (part < 0 || part >= l.cell->statePartCount()) {
    throw std::out_of_range("layer " + std::to_string(layer + 1) + " has no state part " +
                            std::to_string(part));
  }
  return state_.data() + l.stateOffset + static_cast<size_t>(part * l.cell->hiddenSize());
}

const float* SingleStreamModel::step(int64_t token) {
  if (token < 0 || token >= vocab_) {
    throw std::out_of_range("symbol id " + std::to_string(token) +
                            " is outside the vocabulary of " + std::to_string(vocab_));
  }
  // Every product alternates its row order from step to step (see GemvOptions::reversed).
  reversed_ = !reversed_;
  const GemvOptions run{at::get_num_threads(), reversed_};
  const float* below = nullptr;  // the output of the layer below, as the next layer reads it
  for (size_t i = 0; i < layers_.size(); ++i) {
    Layer& layer = layers_[i];
    float* xp = layer.xp.data();
    const int64_t size = layer.token.size();
    layer.token.write(token, xp, run);
    if (below) {
      if (layer.fromBelow.values.empty()) {
        for (int64_t k = 0; k < size; ++k) xp[k] += below[k];
      } else {
        gemv(layer.fromBelow.data(), size, layer.fromBelow.cols, below, xp, true, run);
      }
    }
    float* h = stateOf(i, 0);
    float* c = layer.cell->statePartCount() > 1 ? stateOf(i, 1) : nullptr;
    layer.cell->step(xp, h, c, run);
    // As LanguageModel::runLayer(): clamped units are overwritten in the state itself, so the
    // next step's recurrence reads them too; the output mask only touches what is passed on.
    for (const auto& [unit, value] : layer.clamps) h[unit] = value;
    below = h;
    if (!layer.mask.empty()) {
      const int64_t n = layer.cell->hiddenSize();
      for (int64_t k = 0; k < n; ++k) layer.masked[k] = h[k] * layer.mask[k];
      below = layer.masked.data();
    }
  }
  float* logp = logp_.data();
  if (mixture_) {
    torch::NoGradGuard noGrad;
    const int64_t width = layers_.back().cell->hiddenSize();
    const auto top = torch::from_blob(const_cast<float*>(below), {1, 1, width}, torch::kFloat);
    const auto out = mixture_->forward(top).contiguous();
    std::memcpy(logp, out.data_ptr<float>(), sizeof(float) * static_cast<size_t>(vocab_));
    return logp;
  }
  std::copy(outB_.begin(), outB_.end(), logp);
  gemv(outW_.data(), vocab_, outW_.cols, below, logp, /*accumulate=*/true, run);
  logSoftmax(logp, logp, vocab_);
  return logp;
}

ModelState SingleStreamModel::exportState() const {
  ModelState state;
  for (size_t i = 0; i < layers_.size(); ++i) {
    CellState cell;
    const int64_t width = layers_[i].cell->hiddenSize();
    for (int part = 0; part < layers_[i].cell->statePartCount(); ++part) {
      cell.parts.push_back(
          torch::from_blob(const_cast<float*>(layerState(i, part)), {1, width}, torch::kFloat)
              .clone());
    }
    state.layers.push_back(std::move(cell));
  }
  return state;
}

void SingleStreamModel::importState(const ModelState& state) {
  if (state.layers.size() != layers_.size()) {
    throw std::invalid_argument("model state has " + std::to_string(state.layers.size()) +
                                " layers; the model has " + std::to_string(layers_.size()));
  }
  for (size_t i = 0; i < layers_.size(); ++i) {
    const int64_t width = layers_[i].cell->hiddenSize();
    const auto& parts = state.layers[i].parts;
    if (static_cast<int>(parts.size()) != layers_[i].cell->statePartCount()) {
      throw std::invalid_argument("layer " + std::to_string(i + 1) +
                                  ": wrong number of state parts");
    }
    for (int part = 0; part < static_cast<int>(parts.size()); ++part) {
      const auto values = parts[static_cast<size_t>(part)].detach().to(torch::kFloat).contiguous();
      if (values.numel() != width) {
        throw std::invalid_argument("layer " + std::to_string(i + 1) +
                                    ": a state part must hold one row of " + std::to_string(width) +
                                    " values");
      }
      std::copy(values.data_ptr<float>(), values.data_ptr<float>() + width, stateOf(i, part));
    }
  }
}

}  // namespace mrnn::engine
