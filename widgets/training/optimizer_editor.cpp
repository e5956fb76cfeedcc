#include "widgets/training/optimizer_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <algorithm>

#include "widgets/project/project_document.h"

namespace mrnn::widgets {
namespace {

using engine::OptimizerConfig;
using engine::OptimizerKind;

// Merge keys for undo: typing in one field merges into one step.
constexpr int kMergeBase = 0x0F71;

QString typeLabel(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::Adam:
      return QObject::tr("Adam");
    case OptimizerKind::AdamW:
      return QObject::tr("AdamW");
    case OptimizerKind::Rmsprop:
      return QObject::tr("RMSprop");
    case OptimizerKind::Sgd:
      return QObject::tr("SGD");
    case OptimizerKind::RmspropNormalized:
      return QObject::tr("RMSprop, normalised (Krause)");
    case OptimizerKind::NtAsgd:
      return QObject::tr("NT-ASGD (Merity)");
    case OptimizerKind::HessianFree:
      return QObject::tr("Hessian-free");
  }
  return QString();
}

QString numberText(double value) {
  return QLocale::c().toString(value, 'g', 8);
}

}  // namespace

OptimizerEditor::OptimizerEditor(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("optimizerEditor"));
  form_ = new QFormLayout(this);
  form_->setContentsMargins(6, 4, 6, 4);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  type_ = new QComboBox(this);
  type_->setObjectName(QStringLiteral("optimizerType"));
  for (const OptimizerKind kind : engine::optimizerKinds()) {
    type_->addItem(typeLabel(kind), static_cast<int>(kind));
  }
  type_->setToolTip(tr("training.optimizer.type: the update rule each step applies"));
  form_->addRow(tr("Optimiser"), type_);
  connect(type_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    if (refreshing_) return;
    const auto kind = static_cast<OptimizerKind>(type_->currentData().toInt());
    engine::Project project = document_.project();
    project.training.optimizer.kind = kind;
    // Hessian-free has no learning rate to schedule: a schedule would be refused.
    if (kind == OptimizerKind::HessianFree) project.training.schedule = engine::ScheduleConfig{};
    document_.edit(project, tr("Set optimiser to %1").arg(typeLabel(kind)));
  });

  const auto rate = [](auto member) {
    return std::make_pair([member](const OptimizerConfig& c) { return c.*member; },
                          [member](OptimizerConfig& c, double v) { c.*member = v; });
  };
  const auto hf = [](auto member) {
    return std::make_pair([member](const OptimizerConfig& c) { return c.hessianFree.*member; },
                          [member](OptimizerConfig& c, auto v) { c.hessianFree.*member = v; });
  };
  auto lr = rate(&OptimizerConfig::learningRate);
  addReal("lr", tr("Learning rate"), tr("training.optimizer.lr"), lr.first, lr.second, 0.0, 1000.0);
  auto length = rate(&OptimizerConfig::updateLength);
  addReal("update_length", tr("Update length"),
          tr("Every update's length (Krause eq. 22); it takes the learning rate's place"),
          length.first, length.second, 0.0, 1000.0);
  auto decay = rate(&OptimizerConfig::updateLengthDecay);
  addReal("update_length_decay", tr("Length decay"), tr("Per step"), decay.first, decay.second, 0.0,
          1.0);
  for (const auto& [key, label, member] :
       {std::tuple{"beta1", tr("β₁"), &OptimizerConfig::beta1},
        std::tuple{"beta2", tr("β₂"), &OptimizerConfig::beta2},
        std::tuple{"epsilon", tr("ε"), &OptimizerConfig::epsilon},
        std::tuple{"weight_decay", tr("Weight decay"), &OptimizerConfig::weightDecay},
        std::tuple{"momentum", tr("Momentum"), &OptimizerConfig::momentum},
        std::tuple{"alpha", tr("α (squared-gradient decay)"), &OptimizerConfig::alpha}}) {
    auto accessors = rate(member);
    addReal(key, label, QStringLiteral("training.optimizer.%1").arg(QString::fromLatin1(key)),
            accessors.first, accessors.second, 0.0, 1.0);
  }
  addCount(
      "non_monotone", tr("Non-monotone checks"),
      tr("NT-ASGD averages once validation is worse than the best of the checks before the "
         "last n"),
      [](const OptimizerConfig& c) { return c.nonMonotone; },
      [](OptimizerConfig& c, int64_t v) { c.nonMonotone = v; }, 1, 1000000);

  auto lambda = hf(&engine::HessianFreeConfig::initialLambda);
  addReal("lambda", tr("Initial λ"),
          tr("The damping's start (Sutskever et al. 2011 §5.2: 10); then Levenberg-Marquardt's "
             "rule moves it"),
          lambda.first, lambda.second, 1e-12, 1e12);
  auto floor = hf(&engine::HessianFreeConfig::minLambda);
  addReal("min_lambda", tr("λ floor"),
          tr("λ never falls below this (0: no floor, as Martens' code); without one it can "
             "fall for hundreds of steps, taking the structural damping μλ with it"),
          floor.first, floor.second, 0.0, 1e12);
  auto mu = hf(&engine::HessianFreeConfig::structuralDamping);
  addReal("structural_damping", tr("Structural damping μ"),
          tr("Penalises change of the hidden states, weighed μλ (§5.2: 0.1; 0: none)"), mu.first,
          mu.second, 0.0, 1e6);
  for (const auto& [key, label, tip, member, minimum] :
       {std::tuple{"cg_max_iterations", tr("CG iterations, at most"), tr("§5.2: 150"),
                   &engine::HessianFreeConfig::cgMaxIterations, 1},
        std::tuple{"cg_min_iterations", tr("CG iterations, at least"),
                   tr("Before CG's progress test may stop it (Martens: 1)"),
                   &engine::HessianFreeConfig::cgMinIterations, 1},
        std::tuple{"gradient_windows", tr("Gradient windows"),
                   tr("Windows of batch_size sequences the gradient is taken on, each step"),
                   &engine::HessianFreeConfig::gradientWindows, 1},
        std::tuple{"curvature_windows", tr("Curvature windows"),
                   tr("The first of those the curvature products are taken on"),
                   &engine::HessianFreeConfig::curvatureWindows, 1},
        std::tuple{"curvature_sequences", tr("Curvature sequences"),
                   tr("Of each curvature window's streams, this many (must divide the batch "
                      "size); 0: all"),
                   &engine::HessianFreeConfig::curvatureSequences, 0}}) {
    auto accessors = hf(member);
    addCount(key, label, tip, accessors.first, accessors.second, minimum, 1 << 20);
  }
  addPreconditioner();
  auto power = hf(&engine::HessianFreeConfig::preconditionerPower);
  addReal("preconditioner_power", tr("Preconditioner power"), tr("Martens: 0.75"), power.first,
          power.second, 0.0, 1.0);
  auto warm = hf(&engine::HessianFreeConfig::warmStartDecay);
  addReal("warm_start_decay", tr("Warm start decay"),
          tr("CG starts from the last step's solution times this (Martens: 0.95)"), warm.first,
          warm.second, 0.0, 1.0);
  auto backtracking = hf(&engine::HessianFreeConfig::backtracking);
  addSwitch("backtracking", tr("CG backtracking"),
            tr("Keep the best of CG's stored iterates on the gradient's data (Martens)"),
            backtracking.first, backtracking.second);
  auto search = hf(&engine::HessianFreeConfig::lineSearch);
  addSwitch("line_search", tr("Line search"), tr("Armijo's backtracking line search (Martens)"),
            search.first, search.second);

  note_ = new QLabel(this);
  note_->setWordWrap(true);
  note_->setStyleSheet(QStringLiteral("color: #606060;"));
  form_->addRow(note_);
  connect(&document_, &ProjectDocument::projectChanged, this, &OptimizerEditor::refresh);
  refresh();
}

void OptimizerEditor::addReal(const std::string& key, const QString& label, const QString& tip,
                              std::function<double(const OptimizerConfig&)> get,
                              std::function<void(OptimizerConfig&, double)> set, double minimum,
                              double maximum) {
  auto* line = new QLineEdit(this);
  line->setObjectName(QString::fromStdString("optimizer_" + key));
  auto* validator = new QDoubleValidator(minimum, maximum, 12, line);
  validator->setLocale(QLocale::c());
  validator->setNotation(QDoubleValidator::ScientificNotation);
  line->setValidator(validator);
  line->setToolTip(tip);
  form_->addRow(label, line);
  connect(line, &QLineEdit::editingFinished, this, [this, line, label, get, set] {
    bool ok = false;
    const double value = QLocale::c().toDouble(line->text(), &ok);
    if (!ok) {
      line->setText(numberText(get(document_.project().training.optimizer)));
      return;
    }
    edit(tr("Set %1").arg(label), [&](OptimizerConfig& c) { set(c, value); });
  });
  fields_.push_back({key, line, [this, line, get] {
                       line->setText(numberText(get(document_.project().training.optimizer)));
                     }});
}

void OptimizerEditor::addCount(const std::string& key, const QString& label, const QString& tip,
                               std::function<int64_t(const OptimizerConfig&)> get,
                               std::function<void(OptimizerConfig&, int64_t)> set, int minimum,
                               int maximum) {
  auto* spin = new QSpinBox(this);
  spin->setObjectName(QString::fromStdString("optimizer_" + key));
  spin->setRange(minimum, maximum);
  spin->setToolTip(tip);
  form_->addRow(label, spin);
  const int merge = kMergeBase + static_cast<int>(fields_.size());
  connect(spin, qOverload<int>(&QSpinBox::valueChanged), this,
          [this, label, set, merge](int value) {
            if (refreshing_) return;
            engine::Project project = document_.project();
            set(project.training.optimizer, value);
            document_.edit(project, tr("Set %1").arg(label), merge);
          });
  fields_.push_back({key, spin, [this, spin, get] {
                       spin->setValue(
                           static_cast<int>(get(document_.project().training.optimizer)));
                     }});
}

void OptimizerEditor::addSwitch(const std::string& key, const QString& label, const QString& tip,
                                std::function<bool(const OptimizerConfig&)> get,
                                std::function<void(OptimizerConfig&, bool)> set) {
  auto* box = new QCheckBox(this);
  box->setObjectName(QString::fromStdString("optimizer_" + key));
  box->setToolTip(tip);
  form_->addRow(label, box);
  connect(box, &QCheckBox::toggled, this, [this, label, set](bool on) {
    edit(tr("Set %1").arg(label), [&](OptimizerConfig& c) { set(c, on); });
  });
  fields_.push_back({key, box, [this, box, get] {
                       box->setChecked(get(document_.project().training.optimizer));
                     }});
}

void OptimizerEditor::addPreconditioner() {
  auto* box = new QComboBox(this);
  box->setObjectName(QStringLiteral("optimizer_preconditioner"));
  box->addItem(tr("none"), static_cast<int>(engine::Preconditioner::None));
  box->addItem(tr("diagonal (Martens)"), static_cast<int>(engine::Preconditioner::Diagonal));
  box->setToolTip(
      tr("CG's preconditioner: none, or (diag(Σ g²) + λ)^power, g each curvature "
         "sequence's gradient"));
  form_->addRow(tr("Preconditioner"), box);
  connect(box, qOverload<int>(&QComboBox::currentIndexChanged), this, [this, box] {
    const auto choice = static_cast<engine::Preconditioner>(box->currentData().toInt());
    edit(tr("Set preconditioner"),
         [&](OptimizerConfig& c) { c.hessianFree.preconditioner = choice; });
  });
  fields_.push_back({"preconditioner", box, [this, box] {
                       box->setCurrentIndex(static_cast<int>(
                           document_.project().training.optimizer.hessianFree.preconditioner));
                     }});
}

void OptimizerEditor::edit(const QString& label,
                           const std::function<void(OptimizerConfig&)>& change) {
  if (refreshing_) return;
  engine::Project project = document_.project();
  change(project.training.optimizer);
  document_.edit(project, label);
  refresh();  // a refused value shows the project's again
}

QWidget* OptimizerEditor::field(const std::string& key) const {
  for (const Field& f : fields_) {
    if (f.key == key) return f.editor;
  }
  return nullptr;
}

bool OptimizerEditor::isShown(const std::string& key) const {
  const auto keys = engine::optimizerKeysFor(document_.project().training.optimizer.kind);
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

void OptimizerEditor::refresh() {
  refreshing_ = true;
  const OptimizerConfig& optimizer = document_.project().training.optimizer;
  type_->setCurrentIndex(type_->findData(static_cast<int>(optimizer.kind)));
  for (const Field& f : fields_) {
    form_->setRowVisible(f.editor, isShown(f.key));
    f.show();
  }
  note_->setText(optimizer.kind == OptimizerKind::HessianFree
                     ? tr("Each step reads %1 windows; CG runs on %2 of them. No learning rate "
                          "or schedule.")
                           .arg(optimizer.hessianFree.gradientWindows)
                           .arg(optimizer.hessianFree.curvatureWindows)
                     : QString());
  note_->setVisible(!note_->text().isEmpty());
  refreshing_ = false;
}

}  // namespace mrnn::widgets
