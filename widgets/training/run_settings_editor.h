#pragma once

#include <QWidget>
#include <functional>
#include <string>
#include <vector>

#include "engine/config/training_config.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QSpinBox;

namespace mrnn::widgets {

class ProjectDocument;

// The settings a researcher changes between runs, as a form beside the charts: how long to
// train (steps or epochs, and a time budget), batch size, BPTT, the learning-rate schedule,
// how often to validate and checkpoint, early stopping (and, for a long-range problem, stopping
// once it is solved), CPU threads and the seed. Each field
// is the project's training key (its tooltip names it); every change is one undoable edit,
// and the form follows the YAML as the composer does. A value the project refuses is not
// taken: the field shows the project's again. The optimiser and its rate have their own form
// (OptimizerEditor), the device its box in the monitor's tool bar.
class RunSettingsEditor : public QWidget {
  Q_OBJECT

 public:
  explicit RunSettingsEditor(ProjectDocument& document, QWidget* parent = nullptr);

  // The field of a training key ("max_steps", "batch_size", "schedule"); null for others.
  QWidget* field(const std::string& key) const;
  QComboBox* lengthUnitBox() const { return lengthUnit_; }
  QSpinBox* lengthBox() const { return length_; }

 private:
  struct Field {
    std::string key;
    QWidget* editor = nullptr;
    std::function<void()> show;  // from the project to the editor
  };

  void addCount(const std::string& key, const QString& label, const QString& tip,
                std::function<int64_t(const engine::TrainingConfig&)> get,
                std::function<void(engine::TrainingConfig&, int64_t)> set, int minimum, int maximum,
                const QString& zeroText = QString());
  void addLength();
  void addTimeBudget();
  void addSchedule();
  void addStopWhenSolved();
  void edit(const QString& label, int mergeKey,
            const std::function<void(engine::TrainingConfig&)>& change);
  void refresh();

  ProjectDocument& document_;
  QFormLayout* form_ = nullptr;
  QComboBox* lengthUnit_ = nullptr;
  QSpinBox* length_ = nullptr;
  std::vector<Field> fields_;
  int64_t lastSteps_ = 1000;  // what "steps" offers again after a switch to epochs
  bool refreshing_ = false;
};

}  // namespace mrnn::widgets
