#include "widgets/training/run_settings_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

#include "widgets/project/project_document.h"
#include "widgets/training/duration_spin_box.h"

namespace mrnn::widgets {
namespace {

using engine::ScheduleKind;
using engine::TrainingConfig;

// Merge keys for undo: typing in one field merges into one step.
constexpr int kMergeBase = 0x0E51;
constexpr int kLengthMerge = 0x0E50;
constexpr int kBudgetMerge = 0x0E4F;

QString scheduleLabel(ScheduleKind kind) {
  switch (kind) {
    case ScheduleKind::Constant:
      return QObject::tr("Constant");
    case ScheduleKind::Linear:
      return QObject::tr("Linear decay");
    case ScheduleKind::Exponential:
      return QObject::tr("Exponential, per epoch");
    case ScheduleKind::Steps:
      return QObject::tr("Steps at milestones");
    case ScheduleKind::Plateau:
      return QObject::tr("On a validation plateau");
  }
  return QString();
}

constexpr int kMaxCount = 2'000'000'000;

}  // namespace

RunSettingsEditor::RunSettingsEditor(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("runSettingsEditor"));
  form_ = new QFormLayout(this);
  form_->setContentsMargins(6, 4, 6, 4);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  addLength();
  addTimeBudget();
  addCount(
      "batch_size", tr("Batch size"), tr("training.batch_size: streams read side by side"),
      [](const TrainingConfig& c) { return c.batchSize; },
      [](TrainingConfig& c, int64_t v) { c.batchSize = v; }, 1, 1'000'000);
  addCount(
      "bptt", tr("BPTT"), tr("training.bptt: symbols per window, back-propagated through"),
      [](const TrainingConfig& c) { return c.bptt; },
      [](TrainingConfig& c, int64_t v) { c.bptt = v; }, 1, 1'000'000);
  addSchedule();
  addCount(
      "validate_every", tr("Validate every"),
      tr("training.validate_every: steps between validations (and at every epoch's end)"),
      [](const TrainingConfig& c) { return c.validateEvery; },
      [](TrainingConfig& c, int64_t v) { c.validateEvery = v; }, 0, kMaxCount,
      tr("epoch ends only"));
  addCount(
      "checkpoint_every", tr("Checkpoint every"),
      tr("training.checkpoint_every: steps between checkpoints (a run resumes from the last)"),
      [](const TrainingConfig& c) { return c.checkpointEvery; },
      [](TrainingConfig& c, int64_t v) { c.checkpointEvery = v; }, 0, kMaxCount,
      tr("at the end only"));
  addCount(
      "early_stop_patience", tr("Early stop after"),
      tr("training.early_stop_patience: stop after this many validations without improvement"),
      [](const TrainingConfig& c) { return c.earlyStopPatience; },
      [](TrainingConfig& c, int64_t v) { c.earlyStopPatience = v; }, 0, 1'000'000, tr("never"));
  addStopWhenSolved();
  addCount(
      "threads", tr("CPU threads"),
      tr("training.threads: threads a CPU run uses at most (it follows the desktop's load)"),
      [](const TrainingConfig& c) { return int64_t{c.threads}; },
      [](TrainingConfig& c, int64_t v) { c.threads = static_cast<int>(v); }, 0, 4096,
      tr("all cores"));
  addCount(
      "seed", tr("Seed"), tr("training.seed: initial weights, dropout and data order"),
      [](const TrainingConfig& c) { return static_cast<int64_t>(c.seed); },
      [](TrainingConfig& c, int64_t v) { c.seed = static_cast<uint64_t>(v); }, 0, kMaxCount);
  for (const char* key : {"validate_every", "checkpoint_every"}) {
    if (auto* spin = qobject_cast<QSpinBox*>(field(key))) spin->setSuffix(tr(" steps"));
  }
  if (auto* spin = qobject_cast<QSpinBox*>(field("early_stop_patience"))) {
    spin->setSuffix(tr(" validations"));
  }
  connect(&document_, &ProjectDocument::projectChanged, this, &RunSettingsEditor::refresh);
  refresh();
}

void RunSettingsEditor::addLength() {
  // max_steps > 0 ends the run at a step; otherwise `epochs` does.
  lengthUnit_ = new QComboBox(this);
  lengthUnit_->setObjectName(QStringLiteral("training_length_unit"));
  lengthUnit_->addItem(tr("steps"));
  lengthUnit_->addItem(tr("epochs"));
  length_ = new QSpinBox(this);
  length_->setObjectName(QStringLiteral("training_length"));
  length_->setRange(1, kMaxCount);
  length_->setGroupSeparatorShown(true);
  length_->setToolTip(
      tr("training.max_steps, or training.epochs when the length is in epochs: how long a new "
         "run trains"));
  auto* row = new QHBoxLayout;
  row->addWidget(length_, 1);
  row->addWidget(lengthUnit_);
  form_->addRow(tr("Train for"), row);
  connect(length_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int value) {
    const bool steps = lengthUnit_->currentIndex() == 0;
    edit(tr("Set training length"), kLengthMerge, [steps, value](TrainingConfig& c) {
      if (steps) {
        c.maxSteps = value;
      } else {
        c.epochs = value;
      }
    });
  });
  connect(lengthUnit_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int unit) {
    // Epochs are not steps: each unit comes back with its own last number.
    edit(unit == 0 ? tr("Train for a number of steps") : tr("Train for a number of epochs"), 0,
         [unit, steps = lastSteps_](TrainingConfig& c) { c.maxSteps = unit == 0 ? steps : 0; });
  });
  fields_.push_back({"max_steps", length_, [this] {
                       const TrainingConfig& c = document_.project().training;
                       if (c.maxSteps > 0) lastSteps_ = c.maxSteps;
                       lengthUnit_->setCurrentIndex(c.maxSteps > 0 ? 0 : 1);
                       length_->setValue(static_cast<int>(
                           std::min<int64_t>(c.maxSteps > 0 ? c.maxSteps : c.epochs, kMaxCount)));
                     }});
}

void RunSettingsEditor::addTimeBudget() {
  // In the project's own unit, seconds, shown as "4 s" or "1 h 30 min": whole minutes once
  // showed a budget of 4 s as "none" and rounded a typed one.
  auto* budget = new DurationSpinBox(this);
  budget->setObjectName(QStringLiteral("training_max_seconds"));
  budget->setRange(0.0, static_cast<double>(engine::kMaxRunSeconds));
  budget->setSpecialValueText(tr("none"));
  budget->setToolTip(
      tr("training.max_seconds: the run also ends (validated and tested) after this much "
         "training time; a fair budget when optimisers' steps differ in cost. Type 90, 90 s, "
         "30 min or 1 h 30 min"));
  form_->addRow(tr("Time budget"), budget);
  connect(budget, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this](double value) {
    edit(tr("Set time budget"), kBudgetMerge, [value](TrainingConfig& c) { c.maxSeconds = value; });
  });
  fields_.push_back({"max_seconds", budget, [this, budget] {
                       budget->setValue(
                           std::min(document_.project().training.maxSeconds, budget->maximum()));
                     }});
}

void RunSettingsEditor::addSchedule() {
  auto* box = new QComboBox(this);
  box->setObjectName(QStringLiteral("training_schedule"));
  for (const ScheduleKind kind :
       {ScheduleKind::Constant, ScheduleKind::Linear, ScheduleKind::Exponential,
        ScheduleKind::Steps, ScheduleKind::Plateau}) {
    box->addItem(scheduleLabel(kind), static_cast<int>(kind));
  }
  box->setToolTip(
      tr("training.schedule.type: how the learning rate moves over the run (its floor, "
         "factor and milestones are in the YAML)"));
  form_->addRow(tr("Schedule"), box);
  connect(box, qOverload<int>(&QComboBox::currentIndexChanged), this, [this, box] {
    const auto kind = static_cast<ScheduleKind>(box->currentData().toInt());
    edit(tr("Set schedule to %1").arg(scheduleLabel(kind)), 0, [kind](TrainingConfig& c) {
      c.schedule = engine::ScheduleConfig{};
      c.schedule.kind = kind;
    });
  });
  fields_.push_back({"schedule", box, [this, box] {
                       const auto kind = document_.project().training.schedule.kind;
                       box->setCurrentIndex(box->findData(static_cast<int>(kind)));
                     }});
}

void RunSettingsEditor::addStopWhenSolved() {
  // A long-range problem's alone: a corpus has no solved state, and the project refuses the key.
  auto* box = new QCheckBox(tr("End the run once the problem is solved"), this);
  box->setObjectName(QStringLiteral("training_stop_when_solved"));
  const QString tip =
      tr("training.stop_when_solved: the run ends, tested, at the first validation that shows "
         "the problem solved: below 1% of its sequences wrong, and not by luck (a model that got "
         "1% wrong would do as well at most once in 20 validations); its training time is then "
         "the time to solve");
  form_->addRow(tr("When solved"), box);
  connect(box, &QCheckBox::toggled, this, [this](bool on) {
    edit(on ? tr("Stop when solved") : tr("Train on when solved"), 0,
         [on](TrainingConfig& c) { c.stopWhenSolved = on; });
  });
  fields_.push_back(
      {"stop_when_solved", box, [this, box, tip] {
         const engine::Project& project = document_.project();
         const bool problem = project.hasData && engine::isLongRangeProblem(project.data.synthetic);
         form_->setRowVisible(box, problem);
         box->setChecked(project.training.stopWhenSolved);
         // Fewer validation sequences cannot show it solved: the project refuses
         // the key, so the box says why rather than being refused.
         const int64_t valid = project.data.problem.validSequences;
         const bool enough = valid >= engine::kStopWhenSolvedSequences;
         box->setEnabled(enough || project.training.stopWhenSolved);
         box->setToolTip(enough ? tip
                                : tip + tr(". It needs at least %1 validation sequences; "
                                           "data.problem.valid is %2.")
                                            .arg(engine::kStopWhenSolvedSequences)
                                            .arg(valid));
       }});
}

void RunSettingsEditor::addCount(const std::string& key, const QString& label, const QString& tip,
                                 std::function<int64_t(const TrainingConfig&)> get,
                                 std::function<void(TrainingConfig&, int64_t)> set, int minimum,
                                 int maximum, const QString& zeroText) {
  auto* spin = new QSpinBox(this);
  spin->setObjectName(QString::fromStdString("training_" + key));
  spin->setRange(minimum, maximum);
  spin->setGroupSeparatorShown(true);
  spin->setToolTip(tip);
  if (!zeroText.isEmpty()) spin->setSpecialValueText(zeroText);
  form_->addRow(label, spin);
  const int merge = kMergeBase + static_cast<int>(fields_.size());
  connect(
      spin, qOverload<int>(&QSpinBox::valueChanged), this, [this, label, set, merge](int value) {
        edit(tr("Set %1").arg(label), merge, [&set, value](TrainingConfig& c) { set(c, value); });
      });
  fields_.push_back({key, spin, [this, spin, get] {
                       spin->setValue(static_cast<int>(
                           std::min<int64_t>(get(document_.project().training), spin->maximum())));
                     }});
}

void RunSettingsEditor::edit(const QString& label, int mergeKey,
                             const std::function<void(TrainingConfig&)>& change) {
  if (refreshing_) return;
  engine::Project project = document_.project();
  change(project.training);
  document_.edit(project, label, mergeKey);
  refresh();  // a refused value shows the project's again
}

QWidget* RunSettingsEditor::field(const std::string& key) const {
  for (const Field& f : fields_) {
    if (f.key == key) return f.editor;
  }
  return nullptr;
}

void RunSettingsEditor::refresh() {
  refreshing_ = true;
  for (const Field& f : fields_) f.show();
  refreshing_ = false;
}

}  // namespace mrnn::widgets
