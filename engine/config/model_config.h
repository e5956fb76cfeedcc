#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/config/cell_type.h"

namespace mrnn::engine {

enum class InputLevel { Byte, Char, Word };
// Softmax and MoS predict the next symbol; Linear predicts real numbers with squared error
// (the addition problem's target).
enum class OutputKind { Softmax, MixtureOfSoftmaxes, Linear };
enum class OutputGate { Outside, Inside };   // h = o*tanh(c), or h = tanh(o*c) (Krause §4.1)
enum class MinorInput { Embedding, Below };  // MMLM-1 / MMLM-2 (Shuang §V-D1)
// Orthogonal (Saxe et al.), uniform, or sparse: each unit's row of every recurrent matrix has
// `sparseConnections` nonzero weights (Martens 2010; Sutskever et al. 2011 §5.2: 15).
enum class RecurrentInit { Orthogonal, Uniform, Sparse };
std::string recurrentInitName(RecurrentInit init);  // "orthogonal", "uniform", "sparse"

std::string inputLevelName(InputLevel level);
std::string outputKindName(OutputKind kind);

struct InputConfig {
  InputLevel level = InputLevel::Char;
  int64_t embeddingSize = 0;  // 0: one-hot input of the vocabulary's size
  int64_t vocabSize = 0;      // 0: taken from the corpus (bytes: always 256)
  // Real-valued inputs read beside each symbol, appended to its vector (the addition
  // problem's numbers); 0: none.
  int64_t values = 0;
};

struct LayerConfig {
  CellType type = CellType::Lstm;
  int64_t hiddenSize = 256;
  int64_t mSize = 0;  // intermediate state / factor size; 0 = hidden size
  OutputGate outputGate = OutputGate::Outside;
  int rounds = 5;           // Mogrifier r; 0 is exactly the LSTM
  int64_t rank = 40;        // Mogrifier k; <= 0 means full-rank Q and R
  bool zigzag = true;       // false: the "no zigzag" ablation (Melis §4.1)
  double majorShare = 0.9;  // Major-Minor: fraction of hiddenSize given to the major LSTM
  MinorInput minorInput = MinorInput::Embedding;
  double weightDrop = 0.0;  // DropConnect on the recurrent matrices, one mask per window
  bool weightNorm = false;  // weight normalisation of the recurrent matrices (Krause §4.2)
  // mRNN only: a bias b_h inside Sutskever's eq. 8, which the paper's form has not (eq. 3,
  // the tensor RNN it factorises, has one). Checkpoints from before this key had it.
  bool bias = false;
  // GRU only: PyTorch's (cuDNN's) candidate, j = tanh(U_h x + b_h + r * (W_h h + b_hh)), the
  // reset gate applied after the recurrent product, which has a bias of its own; false is
  // Maupomé & Meurs eq. 20, j = tanh(U_h x + W_h (r * h) + b_h).
  bool resetAfter = false;

  // Resolved sizes (the defaults above applied).
  int64_t intermediateSize() const { return mSize > 0 ? mSize : hiddenSize; }
  int64_t majorSize() const;
  int64_t minorSize() const { return hiddenSize - majorSize(); }
};

struct OutputConfig {
  OutputKind kind = OutputKind::Softmax;
  int64_t size = 1;        // Linear: real outputs per step
  int64_t mixtures = 15;   // Mixture of Softmaxes components
  int64_t latentSize = 0;  // MoS latent width; 0 = embedding size if tied, else last layer width
  bool tieEmbeddings = false;
};

struct DropoutConfig {
  double embedding = 0.0;  // variational, on embedding features (mask shared over time)
  double token = 0.0;      // drops whole vocabulary entries of the embedding (AWD-LSTM)
  double hidden = 0.0;     // variational, on each layer's output before the next layer
  double state = 0.0;      // variational, on h_{t-1} where it enters the recurrent matrices
  double output = 0.0;     // variational, on the last layer's output before the softmax
};

struct InitConfig {
  uint64_t seed = 1;
  RecurrentInit recurrent = RecurrentInit::Orthogonal;
  double recurrentScale = 0.7;  // Krause: scaled orthogonal, 0.7
  // Input matrices uniform ±inputScale/√fan-in. Small inputs keep a tanh RNN near linear, where
  // an orthogonal recurrence keeps what it read long ago (20-bit memorisation).
  double inputScale = 1.0;
  int64_t sparseConnections = 15;  // sparse: nonzero incoming weights per unit
  double forgetBias = 3.0;         // Krause: 3
};

struct ModelConfig {
  InputConfig input;
  std::vector<LayerConfig> layers;
  OutputConfig output;
  DropoutConfig dropout;
  InitConfig init;

  // Width of the vectors the first layer reads: the embedding, or the one-hot vector, and
  // the real-valued inputs.
  int64_t inputWidth(int64_t vocab) const {
    return (input.embeddingSize > 0 ? input.embeddingSize : vocab) + input.values;
  }
  // Whether the model predicts symbols (softmax, MoS) rather than real numbers.
  bool predictsSymbols() const { return output.kind != OutputKind::Linear; }
};

}  // namespace mrnn::engine
