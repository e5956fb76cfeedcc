#include "reference_cells.h"

#include <stdexcept>

namespace mrnn::test {
namespace {

using engine::CellType;
using engine::LayerConfig;
using engine::OutputGate;

const Mat& get(const Weights& w, const std::string& name) {
  const auto it = w.find(name);
  if (it == w.end()) throw std::runtime_error("reference: no weight named " + name);
  return it->second;
}

Vec bias(const Weights& w, const std::string& name, int64_t first, int64_t count) {
  return slice(get(w, name).values, first, count);
}

// Rows of gate g (0-based) when each gate owns `size` rows of a stacked matrix.
Mat gateRows(const Weights& w, const std::string& name, int g, int64_t size) {
  return get(w, name).rowRange(g * size, size);
}

// Krause eqs. 12-16 given the four pre-activations (order i, f, o, j).
RefResult lstmFinish(const Vec& preI, const Vec& preF, const Vec& preO, const Vec& preJ,
                     const Vec& cPrev, OutputGate gate, const std::string& prefix = "") {
  RefResult out;
  const Vec i = sigmoid(preI);
  const Vec f = sigmoid(preF);
  const Vec o = sigmoid(preO);
  const Vec j = tanhOf(preJ);
  out.state.c = add(mul(f, cPrev), mul(i, j));                              // eq. 15
  out.state.h = gate == OutputGate::Outside ? mul(tanhOf(out.state.c), o)   // eq. 16
                                            : tanhOf(mul(out.state.c, o));  // §4.1
  out.probes[prefix + "i"] = i;
  out.probes[prefix + "f"] = f;
  out.probes[prefix + "o"] = o;
  out.probes[prefix + "j"] = j;
  out.probes[prefix + "c"] = out.state.c;
  out.probes[prefix + "h"] = out.state.h;
  return out;
}

// Plain LSTM with gate-stacked weights W_x (input), W_h (recurrent), bias b.
RefResult lstm(const Weights& w, const std::string& wx, const std::string& wh, const std::string& b,
               int64_t h, const Vec& x, const Vec& hPrev, const Vec& cPrev, OutputGate gate,
               const std::string& prefix = "") {
  Vec pre[4];
  for (int g = 0; g < 4; ++g) {
    pre[g] = add(matVec(gateRows(w, wx, g, h), x), matVec(gateRows(w, wh, g, h), hPrev),
                 bias(w, b, g * h, h));
  }
  return lstmFinish(pre[0], pre[1], pre[2], pre[3], cPrev, gate, prefix);
}

RefResult rnn(const Weights& w, const Vec& x, const RefState& s) {
  RefResult out;  // Sutskever eq. 1
  out.state.h =
      tanhOf(add(matVec(get(w, "W_hx"), x), matVec(get(w, "W_hh"), s.h), get(w, "b").values));
  out.probes["h"] = out.state.h;
  return out;
}

RefResult mrnn(const Weights& w, const Vec& x, const RefState& s) {
  RefResult out;
  const Vec m = mul(matVec(get(w, "W_mx"), x), matVec(get(w, "W_mh"), s.h));  // eq. 7
  // eq. 8, which has no bias; `bias: true` adds eq. 3's b_h.
  Vec pre = add(matVec(get(w, "W_hm"), m), matVec(get(w, "W_hx"), x));
  if (w.count("b")) pre = add(pre, get(w, "b").values);
  out.state.h = tanhOf(pre);
  out.probes["m"] = m;
  out.probes["h"] = out.state.h;
  return out;
}

RefResult mlstm(const LayerConfig& layer, const Weights& w, const Vec& x, const RefState& s) {
  const int64_t h = layer.hiddenSize;
  const Vec m = mul(matVec(get(w, "W_mx"), x), matVec(get(w, "W_mh"), s.h));  // eq. 17
  Vec pre[4];
  for (int g = 0; g < 4; ++g) {  // eqs. 18-21: W_{*x} x + W_{*m} m
    pre[g] = add(matVec(gateRows(w, "W_x", g, h), x), matVec(gateRows(w, "W_m", g, h), m),
                 bias(w, "b", g * h, h));
  }
  RefResult out = lstmFinish(pre[0], pre[1], pre[2], pre[3], s.c, layer.outputGate);
  out.probes["m"] = m;
  return out;
}

RefResult tmlstm(const LayerConfig& layer, const Weights& w, const Vec& x, const RefState& s) {
  const int64_t h = layer.hiddenSize;
  const int64_t msize = layer.intermediateSize();
  const char* names[] = {"m_i", "m_f", "m_o", "m_j"};
  Vec pre[4];
  Vec ms[4];
  for (int g = 0; g < 4; ++g) {
    // eq. 17: each gate's own m; eqs. 14-16 (and the candidate): U_g x + V_g m_g.
    ms[g] =
        mul(matVec(gateRows(w, "W_mx", g, msize), x), matVec(gateRows(w, "W_mh", g, msize), s.h));
    pre[g] = add(matVec(gateRows(w, "W_x", g, h), x), matVec(gateRows(w, "V", g, h), ms[g]),
                 bias(w, "b", g * h, h));
  }
  RefResult out = lstmFinish(pre[0], pre[1], pre[2], pre[3], s.c, layer.outputGate);
  for (int g = 0; g < 4; ++g) out.probes[names[g]] = ms[g];
  return out;
}

RefResult gru(const LayerConfig& layer, const Weights& w, const Vec& x, const RefState& s) {
  const int64_t h = layer.hiddenSize;
  const Vec z = sigmoid(add(matVec(gateRows(w, "W_x", 0, h), x),
                            matVec(gateRows(w, "W_zr", 0, h), s.h), bias(w, "b", 0, h)));  // eq. 20
  const Vec r = sigmoid(add(matVec(gateRows(w, "W_x", 1, h), x),
                            matVec(gateRows(w, "W_zr", 1, h), s.h), bias(w, "b", h, h)));  // eq. 21
  // eq. 19, or PyTorch's form with reset_after: U_h x + b_h + r * (W_h h + b_hh).
  const Vec hHat = layer.resetAfter
                       ? add(matVec(gateRows(w, "W_x", 2, h), x),
                             mul(r, add(matVec(get(w, "W_h"), s.h), get(w, "b_hh").values)),
                             bias(w, "b", 2 * h, h))
                       : add(matVec(gateRows(w, "W_x", 2, h), x),
                             matVec(get(w, "W_h"), mul(r, s.h)), bias(w, "b", 2 * h, h));
  const Vec j = tanhOf(hHat);
  RefResult out;
  out.state.h = interpolate(z, s.h, j);  // eq. 18
  out.probes = {{"z", z}, {"r", r}, {"j", j}, {"h", out.state.h}};
  return out;
}

RefResult mgru(const LayerConfig& layer, const Weights& w, const Vec& x, const RefState& s) {
  const int64_t h = layer.hiddenSize;
  const int64_t m = layer.intermediateSize();
  const Mat u = get(w, "W_x");  // rows z [H], r [M], j [H]
  const Vec mt = mul(matVec(get(w, "W_mx"), x), matVec(get(w, "W_mh"), s.h));  // eq. 5
  const Vec z = sigmoid(
      add(matVec(u.rowRange(0, h), x), matVec(get(w, "V_z"), mt), bias(w, "b", 0, h)));  // eq. 25
  const Vec r = sigmoid(
      add(matVec(u.rowRange(h, m), x), matVec(get(w, "V_r"), mt), bias(w, "b", h, m)));  // eq. 26
  const Vec hHat = add(matVec(u.rowRange(h + m, h), x), matVec(get(w, "V_h"), mul(r, mt)),
                       bias(w, "b", h + m, h));  // eq. 27
  const Vec j = tanhOf(hHat);
  RefResult out;
  out.state.h = interpolate(z, s.h, j);  // eq. 18
  out.probes = {{"m", mt}, {"z", z}, {"r", r}, {"j", j}, {"h", out.state.h}};
  return out;
}

RefResult tmgru(const LayerConfig& layer, const Weights& w, const Vec& x, const RefState& s) {
  const int64_t h = layer.hiddenSize;
  const int64_t m = layer.intermediateSize();
  const Mat wmx = get(w, "W_mx");  // rows z, r, h
  const Mat wmhZr = get(w, "W_mh_zr");
  const Vec mz = mul(matVec(wmx.rowRange(0, m), x), matVec(wmhZr.rowRange(0, m), s.h));
  const Vec mr = mul(matVec(wmx.rowRange(m, m), x), matVec(wmhZr.rowRange(m, m), s.h));
  const Vec z = sigmoid(add(matVec(gateRows(w, "W_x", 0, h), x), matVec(gateRows(w, "V", 0, h), mz),
                            bias(w, "b", 0, h)));  // eq. 22
  // eq. 23 with the bracket where it belongs: r = s(U_r x + V_r m_r).
  const Vec r = sigmoid(add(matVec(gateRows(w, "W_x", 1, h), x), matVec(gateRows(w, "V", 1, h), mr),
                            bias(w, "b", h, h)));
  const Vec mh =
      mul(matVec(wmx.rowRange(2 * m, m), x), matVec(get(w, "W_mh_h"), mul(r, s.h)));  // eq. 24
  const Vec hHat = add(matVec(gateRows(w, "W_x", 2, h), x), matVec(gateRows(w, "V", 2, h), mh),
                       bias(w, "b", 2 * h, h));  // eq. 4
  const Vec j = tanhOf(hHat);
  RefResult out;
  out.state.h = interpolate(z, s.h, j);  // eq. 18
  out.probes = {{"m_z", mz}, {"m_r", mr}, {"m_h", mh},       {"z", z},
                {"r", r},    {"j", j},    {"h", out.state.h}};
  return out;
}

// Q^i or R^i as one explicit matrix (the low-rank product formed first, unlike the engine).
Mat roundMatrix(const LayerConfig& layer, const Weights& w, const std::string& name) {
  if (layer.rank > 0) return matMul(get(w, name + "_left"), get(w, name + "_right"));
  return get(w, name);
}

RefResult mogrifier(const LayerConfig& layer, const Weights& w, const Vec& x, const RefState& s) {
  // Melis eqs. 1-2 with x^{-1} = x and h^0 = h_prev; sequences indexed as in the paper.
  std::map<int, Vec> xs{{-1, x}};
  std::map<int, Vec> hs{{0, s.h}};
  std::map<std::string, Vec> roundProbes;
  int lastX = -1;
  int lastH = 0;
  for (int i = 1; i <= layer.rounds; ++i) {
    if (i % 2 == 1) {
      const Vec& gateSource = layer.zigzag ? hs[i - 1] : s.h;
      xs[i] = mul(
          scale(2.0, sigmoid(matVec(roundMatrix(layer, w, "Q" + std::to_string(i)), gateSource))),
          xs[i - 2]);
      hs[i] = hs[i - 1];  // h is unchanged in odd rounds
      lastX = i;
      roundProbes["x" + std::to_string(i)] = xs[i];
    } else {
      const Vec& gateSource = layer.zigzag ? xs[i - 1] : x;
      hs[i] = mul(
          scale(2.0, sigmoid(matVec(roundMatrix(layer, w, "R" + std::to_string(i)), gateSource))),
          hs[i - 2]);
      xs[i] = xs[i - 1];
      lastH = i;
      roundProbes["h" + std::to_string(i)] = hs[i];
    }
  }
  RefResult out =
      lstm(w, "W_x", "W_h", "b", layer.hiddenSize, xs[lastX], hs[lastH], s.c, layer.outputGate);
  for (auto& [name, value] : roundProbes) out.probes[name] = value;
  return out;
}

RefResult majorMinor(const LayerConfig& layer, const Weights& w, const Vec& x, const Vec& emb,
                     const RefState& s) {
  const int64_t major = layer.majorSize();
  const int64_t minor = layer.minorSize();
  // eq. 21: the major LSTM reads the layer below.
  RefResult majorOut = lstm(w, "W_x_major", "W_h_major", "b_major", major, x, slice(s.h, 0, major),
                            slice(s.c, 0, major), layer.outputGate, "major.");
  if (minor == 0) {
    majorOut.probes["h"] = majorOut.state.h;
    return majorOut;
  }
  // eq. 22: the minor LSTM reads the embedding (MMLM-1) or the layer below (MMLM-2).
  const Vec& minorInput = layer.minorInput == engine::MinorInput::Below ? x : emb;
  RefResult minorOut =
      lstm(w, "W_x_minor", "W_h_minor", "b_minor", minor, minorInput, slice(s.h, major, minor),
           slice(s.c, major, minor), layer.outputGate, "minor.");
  RefResult out;
  out.state.h = concat(majorOut.state.h, minorOut.state.h);
  out.state.c = concat(majorOut.state.c, minorOut.state.c);
  out.probes = majorOut.probes;
  for (auto& [name, value] : minorOut.probes) out.probes[name] = value;
  out.probes["h"] = out.state.h;
  return out;
}

RefResult milstm(const LayerConfig& layer, const Weights& w, const Vec& x, const RefState& s) {
  const int64_t h = layer.hiddenSize;
  Vec pre[4];
  for (int g = 0; g < 4; ++g) {
    // Wu et al.: alpha (.) Wx (.) Uh + beta1 (.) Uh + beta2 (.) Wx + b, per gate.
    const Vec wx = matVec(gateRows(w, "W_x", g, h), x);
    const Vec uh = matVec(gateRows(w, "W_h", g, h), s.h);
    pre[g] =
        add(add(mul(bias(w, "alpha", g * h, h), mul(wx, uh)), mul(bias(w, "beta1", g * h, h), uh)),
            mul(bias(w, "beta2", g * h, h), wx), bias(w, "b", g * h, h));
  }
  return lstmFinish(pre[0], pre[1], pre[2], pre[3], s.c, layer.outputGate);
}

}  // namespace

RefResult referenceStep(const LayerConfig& layer, const Weights& w, const Vec& x,
                        const Vec& embedding, const RefState& previous) {
  switch (layer.type) {
    case CellType::Rnn:
      return rnn(w, x, previous);
    case CellType::Mrnn:
      return mrnn(w, x, previous);
    case CellType::Lstm:
      return lstm(w, "W_x", "W_h", "b", layer.hiddenSize, x, previous.h, previous.c,
                  layer.outputGate);
    case CellType::Mlstm:
      return mlstm(layer, w, x, previous);
    case CellType::Tmlstm:
      return tmlstm(layer, w, x, previous);
    case CellType::Gru:
      return gru(layer, w, x, previous);
    case CellType::Mgru:
      return mgru(layer, w, x, previous);
    case CellType::Tmgru:
      return tmgru(layer, w, x, previous);
    case CellType::Mogrifier:
      return mogrifier(layer, w, x, previous);
    case CellType::Mmlstm:
      return majorMinor(layer, w, x, embedding, previous);
    case CellType::Milstm:
      return milstm(layer, w, x, previous);
  }
  throw std::runtime_error("reference: unknown cell type");
}

}  // namespace mrnn::test
