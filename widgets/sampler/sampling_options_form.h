#pragma once

#include <QWidget>

#include "widgets/sampler/sampler_model_info.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace mrnn::engine {
struct SamplingOptions;
}

namespace mrnn::widgets {

class ClampEditor;

// The sampler console's settings: prime text, temperature, top-k, top-p, greedy, beam width,
// length, number of completions, seed, stop strings, alternatives per position and clamped
// units. Settings that do not apply (temperature under greedy or beam search) are disabled.
class SamplingOptionsForm : public QWidget {
  Q_OBJECT

 public:
  explicit SamplingOptionsForm(QWidget* parent = nullptr);

  // What the engine is asked for. In the stop strings, "|" separates and "\n" is a line
  // break.
  engine::SamplingOptions options() const;
  // The completions the settings produce: the beam width under beam search, else N.
  int completionColumns() const;

  void setModelInfo(const SamplerModelInfo& info);
  void setPrime(const QString& prime);
  void setLength(int symbols);
  void setCompletions(int count);
  void setSeed(int seed);
  int seed() const;
  // "New seed each time" (on by default): after each generation the seed moves on by one,
  // so Generate twice gives two texts, and the seed shown is the next one's.
  bool seedAdvances() const;
  void setSeedAdvances(bool advances);
  void advanceSeed();
  void setTemperature(double temperature);

  ClampEditor* clampEditor() const { return clamps_; }
  QPlainTextEdit* primeEdit() const { return prime_; }

 private:
  void updateEnabled();

  QPlainTextEdit* prime_;
  QDoubleSpinBox* temperature_;
  QSpinBox* topK_;
  QDoubleSpinBox* topP_;
  QCheckBox* greedy_;
  QSpinBox* beam_;
  QSpinBox* length_;
  QSpinBox* completions_;
  QSpinBox* seed_;
  QCheckBox* seedAdvances_ = nullptr;
  QLineEdit* stop_;
  QSpinBox* alternatives_;
  QLabel* beamNote_;
  ClampEditor* clamps_;
};

}  // namespace mrnn::widgets
