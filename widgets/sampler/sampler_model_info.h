#pragma once

#include <QList>
#include <QString>

namespace mrnn::widgets {

// One recurrent layer of the loaded model, for the clamp controls (units 0 .. hiddenSize-1).
struct SamplerLayerInfo {
  QString type;  // the cell's YAML name: "mlstm", "lstm", ...
  qint64 hiddenSize = 0;
};

// What the sampler console shows about the loaded checkpoint. A plain value: it crosses from
// the controller's worker thread to the GUI.
struct SamplerModelInfo {
  QString checkpoint;  // the file it came from
  qint64 runId = 0;    // the run that wrote the checkpoint (0: saved outside training)
  QString projectName;
  QString level;  // "byte", "char" or "word"
  qint64 vocabularySize = 0;
  qint64 parameters = 0;
  QList<SamplerLayerInfo> layers;

  bool isValid() const { return vocabularySize > 0; }
  // "char · 65 symbols · mlstm 128 × 2 · 112,513 parameters", for the status line.
  QString summary() const;
};

}  // namespace mrnn::widgets
