#pragma once

#include <QWidget>
#include <functional>
#include <vector>

#include "engine/config/training_config.h"

class QComboBox;
class QFormLayout;
class QLabel;

namespace mrnn::widgets {

class ProjectDocument;

// The project's optimiser, as the training panel offers it: its type (the first-order ones
// and Hessian-free) and, beside it, the keys that type reads (engine::optimizerKeysFor): the
// learning rate and moments of the first-order ones; Hessian-free's λ, structural damping,
// CG's cap and floor, the gradient's and curvature's shares, the preconditioner, the warm
// start's decay, backtracking and the line search. Every change is one undoable edit of the
// project; choosing Hessian-free also sets the schedule to constant (it has no learning rate
// to schedule). A value the key refuses is not taken: the field shows the project's again.
class OptimizerEditor : public QWidget {
  Q_OBJECT

 public:
  explicit OptimizerEditor(ProjectDocument& document, QWidget* parent = nullptr);

  // The optimiser's type combo, and the field of `key` (a YAML key: "lr", "lambda"); null
  // for a key no type reads.
  QComboBox* typeBox() const { return type_; }
  QWidget* field(const std::string& key) const;
  // Whether `key`'s row is shown for the project's type.
  bool isShown(const std::string& key) const;

 private:
  struct Field {
    std::string key;
    QWidget* editor = nullptr;
    std::function<void()> show;  // from the project to the editor
  };

  void addReal(const std::string& key, const QString& label, const QString& tip,
               std::function<double(const engine::OptimizerConfig&)> get,
               std::function<void(engine::OptimizerConfig&, double)> set, double minimum,
               double maximum);
  void addCount(const std::string& key, const QString& label, const QString& tip,
                std::function<int64_t(const engine::OptimizerConfig&)> get,
                std::function<void(engine::OptimizerConfig&, int64_t)> set, int minimum,
                int maximum);
  void addSwitch(const std::string& key, const QString& label, const QString& tip,
                 std::function<bool(const engine::OptimizerConfig&)> get,
                 std::function<void(engine::OptimizerConfig&, bool)> set);
  void addPreconditioner();
  void edit(const QString& label, const std::function<void(engine::OptimizerConfig&)>& change);
  void refresh();

  ProjectDocument& document_;
  QFormLayout* form_ = nullptr;
  QComboBox* type_ = nullptr;
  QLabel* note_ = nullptr;
  std::vector<Field> fields_;
  bool refreshing_ = false;
};

}  // namespace mrnn::widgets
