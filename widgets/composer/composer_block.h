#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "engine/config/project_file.h"
#include "widgets/display_format.h"

namespace mrnn::widgets {

// One block of the composer's canvas: the input, a layer, or the output, with the text it
// shows, its live parameter count and the problems marked on it. Blocks are numbered top to
// bottom: 0 is the input, 1..N the layers (bottom layer first), N+1 the output.
struct ComposerBlock {
  enum class Kind { Input, Layer, Output };

  Kind kind = Kind::Input;
  int layer = -1;  // index into ModelConfig::layers for layer blocks, else -1
  engine::CellType cellType = engine::CellType::Lstm;  // layer blocks only
  QString title;           // "Input", "Layer 1 · mLSTM", "Output · softmax"
  QString detail;          // the settings that shape it: "H 256 · M 256"
  QString extra;           // regularisation and variants; may be empty
  qint64 parameters = -1;  // -1 while unknown (vocabulary not known yet)
  qint64 inputWidth = -1;  // width of the vectors it reads; -1 unknown
  qint64 outputWidth = -1;
  QStringList problems;  // reasons it is invalid; empty when fine
  QString toolTip;       // rich text
};

// A problem of the model, placed on the blocks it concerns.
struct ComposerProblem {
  std::vector<int> blocks;  // block indices; empty for a problem of the whole project
  QString where;            // "Output", "Layer 2", "Model"
  QString key;              // "output.tie_embeddings"
  QString reason;
};

// The blocks of `model`; counts need `vocab` (> 0), else only those that do not depend on
// it are filled.
std::vector<ComposerBlock> describeBlocks(const engine::ModelConfig& model, int64_t vocab);

// Everything that keeps `project` from being trained: engine::checkModel's cross-key
// problems, then (when there are none) whatever the parser rejects when the project is
// written and read back, so that a model the composer calls valid is one training accepts;
// with `availableBytes` (the machine's free memory; 0: unknown), a run too large for it.
std::vector<ComposerProblem> diagnoseProject(const engine::Project& project, int64_t vocab,
                                             uint64_t availableBytes = 0);

// Copies each problem's reason onto the blocks it names.
void markProblems(std::vector<ComposerBlock>& blocks, const std::vector<ComposerProblem>& problems);

// "Layer 2: rank 40 must be below ...", one line per problem.
QString summarizeProblems(const std::vector<ComposerProblem>& problems);

}  // namespace mrnn::widgets
