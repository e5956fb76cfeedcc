#include "widgets/sampler/clamp_editor.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace mrnn::widgets {
namespace {

// Without a model the bounds only keep the numbers sane; a load narrows them.
constexpr int kLooseLayers = 64;
constexpr int kLooseUnits = 1 << 20;

QLabel* columnLabel(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  QPalette muted = label->palette();
  muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
  label->setPalette(muted);
  return label;
}

}  // namespace

ClampEditor::ClampEditor(QWidget* parent)
    : QWidget(parent),
      rowsLayout_(new QVBoxLayout),
      header_(new QWidget(this)),
      empty_(new QLabel(tr("No unit clamped."), this)) {
  setObjectName(QStringLiteral("clampEditor"));
  auto* headerLayout = new QHBoxLayout(header_);
  headerLayout->setContentsMargins(0, 0, 0, 0);
  headerLayout->addWidget(columnLabel(tr("Layer"), header_), 2);
  headerLayout->addWidget(columnLabel(tr("Unit"), header_), 3);
  headerLayout->addWidget(columnLabel(tr("Value"), header_), 3);
  headerLayout->addSpacing(26);

  QPalette muted = empty_->palette();
  muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
  empty_->setPalette(muted);

  auto* add = new QPushButton(tr("Add clamp"), this);
  add->setObjectName(QStringLiteral("addClampButton"));
  add->setToolTip(
      tr("Hold one hidden unit of one layer at a fixed value while the model reads the prime "
         "and generates (e.g. a sentiment unit)."));
  connect(add, &QPushButton::clicked, this, [this] { addClamp(); });
  auto* addRow = new QHBoxLayout;
  addRow->addWidget(add);
  addRow->addStretch(1);

  rowsLayout_->setContentsMargins(0, 0, 0, 0);
  rowsLayout_->setSpacing(3);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addWidget(empty_);
  layout->addWidget(header_);
  layout->addLayout(rowsLayout_);
  layout->addLayout(addRow);
  updateEmptyState();
}

void ClampEditor::setModelInfo(const SamplerModelInfo& info) {
  info_ = info;
  for (auto& row : rows_) applyBounds(row);
}

void ClampEditor::applyBounds(Row& row) {
  const int layers = info_.layers.isEmpty() ? kLooseLayers : static_cast<int>(info_.layers.size());
  row.layer->setRange(1, layers);
  const int layer = row.layer->value() - 1;
  const qint64 units = layer < info_.layers.size() ? info_.layers[layer].hiddenSize : kLooseUnits;
  row.unit->setRange(0, static_cast<int>(std::min<qint64>(units, kLooseUnits) - 1));
  row.unit->setToolTip(info_.layers.isEmpty()
                           ? tr("Hidden unit, from 0")
                           : tr("Hidden unit of layer %1, from 0 to %2 (%3 cell)")
                                 .arg(layer + 1)
                                 .arg(units - 1)
                                 .arg(info_.layers[layer].type));
}

void ClampEditor::addClamp(int layer, qint64 unit, double value) {
  Row row;
  row.widget = new QWidget(this);
  row.widget->setObjectName(QStringLiteral("clampRow"));
  row.layer = new QSpinBox(row.widget);
  row.layer->setObjectName(QStringLiteral("clampLayer"));
  row.layer->setToolTip(tr("Layer, from 1 (the one reading the input)"));
  row.unit = new QSpinBox(row.widget);
  row.unit->setObjectName(QStringLiteral("clampUnit"));
  row.value = new QDoubleSpinBox(row.widget);
  row.value->setObjectName(QStringLiteral("clampValue"));
  row.value->setRange(-100.0, 100.0);
  row.value->setDecimals(3);
  row.value->setSingleStep(0.1);
  row.value->setToolTip(tr("The value the unit is held at, at every step"));
  row.remove = new QToolButton(row.widget);
  row.remove->setObjectName(QStringLiteral("removeClampButton"));
  row.remove->setText(QStringLiteral("✕"));
  row.remove->setAutoRaise(true);
  row.remove->setToolTip(tr("Remove this clamp"));

  applyBounds(row);
  row.layer->setValue(layer + 1);
  applyBounds(row);  // the unit's bound depends on the layer
  row.unit->setValue(static_cast<int>(unit));
  row.value->setValue(value);

  auto* layout = new QHBoxLayout(row.widget);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(row.layer, 2);
  layout->addWidget(row.unit, 3);
  layout->addWidget(row.value, 3);
  layout->addWidget(row.remove);
  rowsLayout_->addWidget(row.widget);

  QWidget* key = row.widget;
  connect(row.layer, &QSpinBox::valueChanged, this, [this, key] {
    for (auto& r : rows_) {
      if (r.widget == key) applyBounds(r);
    }
    Q_EMIT changed();
  });
  connect(row.unit, &QSpinBox::valueChanged, this, &ClampEditor::changed);
  connect(row.value, &QDoubleSpinBox::valueChanged, this, &ClampEditor::changed);
  connect(row.remove, &QToolButton::clicked, this, [this, key] {
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (rows_[i].widget == key) {
        removeClamp(static_cast<int>(i));
        return;
      }
    }
  });
  rows_.push_back(row);
  updateEmptyState();
  Q_EMIT changed();
}

void ClampEditor::removeClamp(int row) {
  if (row < 0 || row >= rowCount()) return;
  // Deleted later: this may run inside the row's own remove button's click.
  rows_[static_cast<size_t>(row)].widget->hide();
  rows_[static_cast<size_t>(row)].widget->deleteLater();
  rows_.erase(rows_.begin() + row);
  updateEmptyState();
  Q_EMIT changed();
}

QList<ClampSetting> ClampEditor::clamps() const {
  QList<ClampSetting> settings;
  for (const auto& row : rows_) {
    settings.append({row.layer->value() - 1, row.unit->value(), row.value->value()});
  }
  return settings;
}

void ClampEditor::updateEmptyState() {
  empty_->setVisible(rows_.empty());
  header_->setVisible(!rows_.empty());
}

}  // namespace mrnn::widgets
