#include "widgets/experiments/fixed_settings_editor.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace mrnn::widgets {
namespace {

const QColor kFixedProblem(255, 214, 214);

}  // namespace

FixedSettingsEditor::FixedSettingsEditor(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("fixedSettingsEditor"));
  auto* title = new QLabel(tr("Fixed settings (every trial)"), this);
  title->setToolTip(
      tr("Changes to the base project that every trial takes (the experiment file's set: "
         "block), such as a shorter training.max_steps for a quick sweep; the project file "
         "itself is not touched"));
  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setObjectName(QStringLiteral("experimentFixedSettings"));
  table_->setHorizontalHeaderLabels({tr("Key"), tr("Value")});
  table_->horizontalHeaderItem(KeyColumn)->setToolTip(
      tr("A key path of the project file: training.max_steps, training.bptt, ..."));
  table_->horizontalHeaderItem(ValueColumn)->setToolTip(tr("A YAML value: 2000, adam, [64, 64]"));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 10);
  table_->horizontalHeader()->setSectionResizeMode(KeyColumn, QHeaderView::Interactive);
  table_->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
  table_->horizontalHeader()->resizeSection(
      KeyColumn, fontMetrics().horizontalAdvance(QStringLiteral("training.validate_every")) + 14);
  // Two rows show without scrolling, three at most: the axes above keep the room.
  table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() +
                           2 * table_->verticalHeader()->defaultSectionSize() + 4);
  table_->setMaximumHeight(table_->horizontalHeader()->sizeHint().height() +
                           3 * table_->verticalHeader()->defaultSectionSize() + 4);

  add_ = new QToolButton(this);
  add_->setObjectName(QStringLiteral("addFixedSetting"));
  add_->setText(tr("Add setting"));
  add_->setIcon(style()->standardIcon(QStyle::SP_FileDialogNewFolder));
  add_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  add_->setToolTip(tr("Fix another key of the project for every trial"));
  remove_ = new QToolButton(this);
  remove_->setObjectName(QStringLiteral("removeFixedSetting"));
  remove_->setText(tr("Remove setting"));
  remove_->setIcon(style()->standardIcon(QStyle::SP_TrashIcon));
  remove_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  remove_->setEnabled(false);

  auto* header = new QHBoxLayout;
  header->setContentsMargins(0, 0, 0, 0);
  header->addWidget(title);
  header->addStretch(1);
  header->addWidget(add_);
  header->addWidget(remove_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(header);
  layout->addWidget(table_);

  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem*) {
    if (!filling_) emit edited();
  });
  connect(table_, &QTableWidget::itemSelectionChanged, this,
          [this] { remove_->setEnabled(editable_ && table_->currentRow() >= 0); });
  connect(add_, &QToolButton::clicked, this, &FixedSettingsEditor::addSetting);
  connect(remove_, &QToolButton::clicked, this, [this] { removeSetting(table_->currentRow()); });
}

void FixedSettingsEditor::fillRow(int row, const FixedSetting& setting) {
  auto* key = new QTableWidgetItem(setting.key);
  auto* value = new QTableWidgetItem(setting.value);
  for (QTableWidgetItem* item : {key, value}) {
    item->setFlags(editable_ ? item->flags() | Qt::ItemIsEditable
                             : item->flags() & ~Qt::ItemIsEditable);
  }
  table_->setItem(row, KeyColumn, key);
  table_->setItem(row, ValueColumn, value);
}

void FixedSettingsEditor::setRows(const std::vector<FixedSetting>& rows) {
  filling_ = true;
  table_->setRowCount(static_cast<int>(rows.size()));
  for (int row = 0; row < table_->rowCount(); ++row) fillRow(row, rows[static_cast<size_t>(row)]);
  filling_ = false;
  remove_->setEnabled(editable_ && table_->currentRow() >= 0);
}

std::vector<FixedSetting> FixedSettingsEditor::rows() const {
  std::vector<FixedSetting> out;
  for (int row = 0; row < table_->rowCount(); ++row) {
    const auto text = [this, row](int column) {
      const QTableWidgetItem* item = table_->item(row, column);
      return item ? item->text() : QString();
    };
    out.push_back({text(KeyColumn), text(ValueColumn)});
  }
  return out;
}

void FixedSettingsEditor::setCell(int row, Column column, const QString& text) {
  if (row < 0 || row >= table_->rowCount()) return;
  table_->item(row, column)->setText(text);  // itemChanged emits edited()
}

void FixedSettingsEditor::addSetting() {
  if (!editable_) return;
  filling_ = true;
  const int row = table_->rowCount();
  table_->insertRow(row);
  fillRow(row, FixedSetting{});
  filling_ = false;
  table_->setCurrentCell(row, KeyColumn);
  if (isVisible()) table_->editItem(table_->item(row, KeyColumn));
}

void FixedSettingsEditor::removeSetting(int row) {
  if (!editable_ || row < 0 || row >= table_->rowCount()) return;
  table_->removeRow(row);
  emit edited();
}

void FixedSettingsEditor::markProblem(const QString& key, const QString& message) {
  clearProblem();
  filling_ = true;
  for (int row = 0; row < table_->rowCount(); ++row) {
    const QTableWidgetItem* keyItem = table_->item(row, KeyColumn);
    if (!keyItem || keyItem->text().trimmed() != key.trimmed()) continue;
    for (int column = 0; column < ColumnCount; ++column) {
      table_->item(row, column)->setBackground(kFixedProblem);
      table_->item(row, column)->setToolTip(message);
    }
  }
  filling_ = false;
}

void FixedSettingsEditor::clearProblem() {
  filling_ = true;
  for (int row = 0; row < table_->rowCount(); ++row) {
    for (int column = 0; column < ColumnCount; ++column) {
      if (QTableWidgetItem* item = table_->item(row, column)) {
        item->setBackground(QBrush());
        item->setToolTip(QString());
      }
    }
  }
  filling_ = false;
}

bool FixedSettingsEditor::isMarked(int row) const {
  const QTableWidgetItem* item = table_->item(row, KeyColumn);
  return item && item->background().color() == kFixedProblem;
}

void FixedSettingsEditor::setEditable(bool editable) {
  if (editable == editable_) return;
  editable_ = editable;
  filling_ = true;
  for (int row = 0; row < table_->rowCount(); ++row) {
    for (int column = 0; column < ColumnCount; ++column) {
      QTableWidgetItem* item = table_->item(row, column);
      item->setFlags(editable ? item->flags() | Qt::ItemIsEditable
                              : item->flags() & ~Qt::ItemIsEditable);
    }
  }
  filling_ = false;
  add_->setEnabled(editable);
  remove_->setEnabled(editable && table_->currentRow() >= 0);
}

}  // namespace mrnn::widgets
