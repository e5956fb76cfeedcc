#include "widgets/experiments/axes_editor.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "engine/config/cell_type.h"

namespace mrnn::widgets {
namespace {

const QColor kProblem(255, 214, 214);

// Key paths researchers vary most, offered as the key is typed (any key path is allowed).
QStringList commonKeys() {
  return {QStringLiteral("training.optimizer.lr"),
          QStringLiteral("training.batch_size"),
          QStringLiteral("training.bptt"),
          QStringLiteral("training.clip_norm"),
          QStringLiteral("training.max_steps"),
          QStringLiteral("training.optimizer.type"),
          QStringLiteral("model.layers[0].type"),
          QStringLiteral("model.layers[0].hidden_size"),
          QStringLiteral("model.layers[0].m_size"),
          QStringLiteral("model.input.embedding_size"),
          QStringLiteral("model.dropout.state"),
          QStringLiteral("model.dropout.hidden"),
          QStringLiteral("model.dropout.output"),
          QStringLiteral("model.dropout.embedding"),
          QStringLiteral("model.init.recurrent_scale"),
          QStringLiteral("model.init.forget_bias")};
}

// The key column's editor completes the common key paths.
class KeyDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                        const QModelIndex& index) const override {
    QWidget* editor = QStyledItemDelegate::createEditor(parent, option, index);
    if (auto* line = qobject_cast<QLineEdit*>(editor); line && index.column() == 0) {
      const QStringList keys = commonKeys();
      auto* completer = new QCompleter(keys, line);
      completer->setCaseSensitivity(Qt::CaseInsensitive);
      completer->setFilterMode(Qt::MatchContains);
      // The list reads whole however narrow the key column is.
      int widest = 0;
      for (const QString& key : keys) {
        widest = std::max(widest, line->fontMetrics().horizontalAdvance(key));
      }
      completer->popup()->setMinimumWidth(widest + 48);
      line->setCompleter(completer);
    }
    return editor;
  }
};

QString kindName(engine::AxisKind kind) {
  switch (kind) {
    case engine::AxisKind::Range:
      return AxesEditor::tr("range");
    case engine::AxisKind::LogRange:
      return AxesEditor::tr("log range");
    case engine::AxisKind::Cells:
      return AxesEditor::tr("cells");
    case engine::AxisKind::Values:
      break;
  }
  return AxesEditor::tr("values");
}

bool applies(engine::AxisKind kind, int column) {
  const bool range = kind == engine::AxisKind::Range || kind == engine::AxisKind::LogRange;
  switch (column) {
    case AxesEditor::ValuesColumn:
      return !range;
    case AxesEditor::FromColumn:
    case AxesEditor::ToColumn:
    case AxesEditor::CountColumn:
      return range;
    case AxesEditor::MatchColumn:
      return kind == engine::AxisKind::Cells;
    default:
      return true;
  }
}

// Numbers of a "0.001, 0.003" list; empty when any item is not a number.
std::vector<double> numbersOf(const QString& values) {
  std::vector<double> numbers;
  for (const QString& part : values.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    bool ok = false;
    const double number = part.trimmed().toDouble(&ok);
    if (!ok) return {};
    numbers.push_back(number);
  }
  return numbers;
}

QString numberText(double value) {
  return QString::number(value, 'g', 6);
}

}  // namespace

AxesEditor::AxesEditor(QWidget* parent) : QWidget(parent) {
  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setObjectName(QStringLiteral("experimentAxes"));
  table_->setHorizontalHeaderLabels(
      {tr("Key"), tr("Kind"), tr("Values"), tr("From"), tr("To"), tr("Count"), tr("Match")});
  const QStringList tips{
      tr("A key path of the project file: training.optimizer.lr, model.layers[0].type, ..."),
      tr("values: a list; range, log range: count points from..to; cells: cell types"),
      tr("Values separated by commas (cells: cell types such as lstm, mlstm)"),
      tr("Range: the first value"),
      tr("Range: the last value"),
      tr("Range: how many points (a grid needs it)"),
      tr("Match parameters (cells): size each cell's layer so that the model has about this "
         "many parameters")};
  for (int c = 0; c < ColumnCount; ++c) table_->horizontalHeaderItem(c)->setToolTip(tips[c]);
  table_->setItemDelegate(new KeyDelegate(table_));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 10);
  auto* header = table_->horizontalHeader();
  // The key is as wide as its text (setRows), the values take the rest; the number columns
  // are as narrow as their headers allow.
  header->setSectionResizeMode(QHeaderView::Interactive);
  header->setSectionResizeMode(ValuesColumn, QHeaderView::Stretch);
  header->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("Count")) + 14);
  header->resizeSection(KeyColumn,
                        fontMetrics().horizontalAdvance(tr("training.optimizer.lr")) + 14);
  header->resizeSection(KindColumn, fontMetrics().horizontalAdvance(tr("log range")) + 40);
  for (const int column : {FromColumn, ToColumn}) {
    header->resizeSection(column, fontMetrics().horizontalAdvance(QStringLiteral("0.0001")) + 14);
  }
  header->resizeSection(CountColumn, fontMetrics().horizontalAdvance(tr("Count")) + 14);
  header->resizeSection(MatchColumn, fontMetrics().horizontalAdvance(tr("Match")) + 24);

  add_ = new QToolButton(this);
  add_->setObjectName(QStringLiteral("addAxis"));
  add_->setText(tr("Add axis"));
  add_->setIcon(style()->standardIcon(QStyle::SP_FileDialogNewFolder));
  add_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  add_->setToolTip(tr("Vary another key of the project"));
  remove_ = new QToolButton(this);
  remove_->setObjectName(QStringLiteral("removeAxis"));
  remove_->setText(tr("Remove axis"));
  remove_->setIcon(style()->standardIcon(QStyle::SP_TrashIcon));
  remove_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

  kind_ = new QComboBox(this);
  kind_->setObjectName(QStringLiteral("searchKind"));
  kind_->addItem(tr("grid"), static_cast<int>(engine::SearchKind::Grid));
  kind_->addItem(tr("random"), static_cast<int>(engine::SearchKind::Random));
  kind_->addItem(tr("halving"), static_cast<int>(engine::SearchKind::Halving));
  kind_->setToolTip(
      tr("grid: every combination; random: trials drawn configurations; halving: "
         "successive halving, the best go on at each rung"));
  trials_ = new QSpinBox(this);
  trials_->setObjectName(QStringLiteral("searchTrials"));
  trials_->setRange(0, 100000);
  trials_->setSpecialValueText(tr("all"));
  trials_->setToolTip(tr("Random and halving: how many configurations are drawn"));
  rungs_ = new QLineEdit(this);
  rungs_->setObjectName(QStringLiteral("searchRungs"));
  rungs_->setPlaceholderText(tr("200, 400, 800"));
  rungs_->setToolTip(
      tr("Halving: the steps at which trials are ranked (multiples of "
         "validate_every; the last is normally max_steps)"));
  seeds_ = new QLineEdit(this);
  seeds_->setObjectName(QStringLiteral("experimentSeeds"));
  // Room for a few seeds whatever the pane's width ("1, 2, 3" once read "2, 3").
  seeds_->setMinimumWidth(seeds_->fontMetrics().horizontalAdvance(QStringLiteral("1, 2, 3, 4  ")));
  seeds_->setPlaceholderText(tr("1"));
  seeds_->setToolTip(
      tr("Each configuration trains once per seed; the results give mean ± "
         "standard deviation over them"));
  slots_ = new QSpinBox(this);
  slots_->setObjectName(QStringLiteral("experimentSlots"));
  slots_->setRange(0, 1024);
  slots_->setSpecialValueText(tr("auto"));
  slots_->setToolTip(tr("Trials trained at once (auto: one per core, at most the trials)"));
  typing_ = new QTimer(this);
  typing_->setSingleShot(true);
  typing_->setInterval(kTypingPauseMs);

  auto* buttons = new QHBoxLayout;
  buttons->setContentsMargins(0, 0, 0, 0);
  buttons->addWidget(add_);
  buttons->addWidget(remove_);
  buttons->addStretch(1);
  auto* searchRow = new QHBoxLayout;
  searchRow->setContentsMargins(0, 0, 0, 0);
  const auto labelled = [this, searchRow](const QString& text, QWidget* field, int stretch) {
    auto* label = new QLabel(text, this);
    label->setBuddy(field);
    searchRow->addWidget(label);
    searchRow->addWidget(field, stretch);
  };
  labelled(tr("Search"), kind_, 0);
  labelled(tr("Trials"), trials_, 0);
  labelled(tr("Rungs"), rungs_, 1);
  labelled(tr("Seeds"), seeds_, 1);
  labelled(tr("Slots"), slots_, 0);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);
  layout->addLayout(searchRow);

  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem*) {
    if (!filling_) emitEdited();
  });
  connect(table_, &QTableWidget::itemSelectionChanged, this,
          [this] { remove_->setEnabled(editable_ && table_->currentRow() >= 0); });
  connect(add_, &QToolButton::clicked, this, &AxesEditor::addAxis);
  connect(remove_, &QToolButton::clicked, this, [this] { removeAxis(table_->currentRow()); });
  connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
    updateSearchFields();
    if (!filling_) emitEdited();
  });
  for (QSpinBox* box : {trials_, slots_}) {
    connect(box, &QSpinBox::valueChanged, this, [this] {
      if (!filling_) typing_->start();
    });
  }
  for (QLineEdit* line : {rungs_, seeds_}) {
    connect(line, &QLineEdit::textEdited, typing_, qOverload<>(&QTimer::start));
    connect(line, &QLineEdit::editingFinished, this, [this] {
      if (typing_->isActive()) {
        typing_->stop();
        emitEdited();
      }
    });
  }
  connect(typing_, &QTimer::timeout, this, &AxesEditor::emitEdited);
  setRows({}, SearchRow{});
}

void AxesEditor::emitEdited() {
  typing_->stop();
  emit edited();
}

QString AxesEditor::cellText(int row, int column) const {
  const QTableWidgetItem* cell = table_->item(row, column);
  return cell != nullptr ? cell->text().trimmed() : QString();
}

engine::AxisKind AxesEditor::kindOf(int row) const {
  const auto* combo = qobject_cast<QComboBox*>(table_->cellWidget(row, KindColumn));
  return combo != nullptr ? static_cast<engine::AxisKind>(combo->currentData().toInt())
                          : engine::AxisKind::Values;
}

void AxesEditor::fillRow(int row, const AxisRow& axis) {
  const bool wasFilling = filling_;
  filling_ = true;
  const QString texts[] = {axis.key, QString(),  axis.values,         axis.from,
                           axis.to,  axis.count, axis.matchParameters};
  for (int column = 0; column < ColumnCount; ++column) {
    if (column == KindColumn) continue;
    auto* cell = new QTableWidgetItem(texts[column]);
    if (column == FromColumn || column == ToColumn || column == CountColumn ||
        column == MatchColumn) {
      cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    table_->setItem(row, column, cell);
  }
  auto* combo = new QComboBox(table_);
  for (const auto kind : {engine::AxisKind::Values, engine::AxisKind::Range,
                          engine::AxisKind::LogRange, engine::AxisKind::Cells}) {
    combo->addItem(kindName(kind), static_cast<int>(kind));
  }
  combo->setCurrentIndex(combo->findData(static_cast<int>(axis.kind)));
  combo->setProperty("kind", static_cast<int>(axis.kind));
  combo->setEnabled(editable_);
  table_->setCellWidget(row, KindColumn, combo);
  connect(combo, &QComboBox::currentIndexChanged, this, [this, combo] {
    for (int r = 0; r < table_->rowCount(); ++r) {
      if (table_->cellWidget(r, KindColumn) == combo) kindChanged(r);
    }
  });
  updateRowFlags(row);
  filling_ = wasFilling;
}

void AxesEditor::updateRowFlags(int row) {
  const engine::AxisKind kind = kindOf(row);
  for (int column = 0; column < ColumnCount; ++column) {
    QTableWidgetItem* cell = table_->item(row, column);
    if (cell == nullptr) continue;
    const bool on = applies(kind, column);
    Qt::ItemFlags flags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    if (on && editable_) flags |= Qt::ItemIsEditable;
    cell->setFlags(flags);
    cell->setBackground(on ? QBrush() : palette().brush(QPalette::Window));
  }
}

void AxesEditor::kindChanged(int row) {
  // The new kind's fields start from the old ones where they can: a list of numbers becomes
  // a range over them, a range its grid points.
  auto* combo = qobject_cast<QComboBox*>(table_->cellWidget(row, KindColumn));
  const auto before = static_cast<engine::AxisKind>(combo->property("kind").toInt());
  const engine::AxisKind kind = kindOf(row);
  combo->setProperty("kind", static_cast<int>(kind));
  const bool range = kind == engine::AxisKind::Range || kind == engine::AxisKind::LogRange;
  filling_ = true;
  if (range && cellText(row, FromColumn).isEmpty() && cellText(row, ToColumn).isEmpty()) {
    const std::vector<double> numbers = numbersOf(cellText(row, ValuesColumn));
    if (numbers.size() >= 2) {
      table_->item(row, FromColumn)
          ->setText(numberText(*std::min_element(numbers.begin(), numbers.end())));
      table_->item(row, ToColumn)
          ->setText(numberText(*std::max_element(numbers.begin(), numbers.end())));
      table_->item(row, CountColumn)->setText(QString::number(numbers.size()));
    }
  } else if (kind == engine::AxisKind::Values && cellText(row, ValuesColumn).isEmpty()) {
    bool okFrom = false, okTo = false, okCount = false;
    const double from = cellText(row, FromColumn).toDouble(&okFrom);
    const double to = cellText(row, ToColumn).toDouble(&okTo);
    const int count = cellText(row, CountColumn).toInt(&okCount);
    const bool log = before == engine::AxisKind::LogRange && from > 0.0 && to > 0.0;
    if (okFrom && okTo && okCount && count >= 2) {
      QStringList points;
      for (int i = 0; i < count; ++i) {
        const double t = static_cast<double>(i) / (count - 1);
        points.append(
            numberText(log ? std::exp(std::log(from) + t * (std::log(to) - std::log(from)))
                           : from + t * (to - from)));
      }
      table_->item(row, ValuesColumn)->setText(points.join(QStringLiteral(", ")));
    }
  }
  for (int column = ValuesColumn; column < ColumnCount; ++column) {
    if (!applies(kind, column)) table_->item(row, column)->setText(QString());
  }
  updateRowFlags(row);
  filling_ = false;
  emitEdited();
}

void AxesEditor::setRows(const std::vector<AxisRow>& axes, const SearchRow& search) {
  filling_ = true;
  typing_->stop();
  clearProblem();
  table_->setRowCount(static_cast<int>(axes.size()));
  for (size_t i = 0; i < axes.size(); ++i) fillRow(static_cast<int>(i), axes[i]);
  int keyWidth = fontMetrics().horizontalAdvance(QStringLiteral("training.optimizer.lr"));
  for (const AxisRow& axis : axes) {
    keyWidth = std::max(keyWidth, fontMetrics().horizontalAdvance(axis.key));
  }
  table_->horizontalHeader()->resizeSection(KeyColumn, std::min(keyWidth + 14, 320));
  kind_->setCurrentIndex(kind_->findData(static_cast<int>(search.kind)));
  trials_->setValue(search.trials.toInt());
  rungs_->setText(search.rungs);
  seeds_->setText(search.seeds);
  slots_->setValue(search.trialSlots.toInt());
  updateSearchFields();
  remove_->setEnabled(editable_ && table_->currentRow() >= 0);
  filling_ = false;
}

std::vector<AxisRow> AxesEditor::axes() const {
  std::vector<AxisRow> rows;
  for (int row = 0; row < table_->rowCount(); ++row) {
    AxisRow axis;
    axis.key = cellText(row, KeyColumn);
    axis.kind = kindOf(row);
    axis.values = cellText(row, ValuesColumn);
    axis.from = cellText(row, FromColumn);
    axis.to = cellText(row, ToColumn);
    axis.count = cellText(row, CountColumn);
    axis.matchParameters = cellText(row, MatchColumn);
    rows.push_back(axis);
  }
  return rows;
}

SearchRow AxesEditor::search() const {
  SearchRow row;
  row.kind = static_cast<engine::SearchKind>(kind_->currentData().toInt());
  if (row.kind != engine::SearchKind::Grid && trials_->value() > 0) {
    row.trials = QString::number(trials_->value());
  }
  if (row.kind == engine::SearchKind::Halving) row.rungs = rungs_->text().trimmed();
  row.seeds = seeds_->text().trimmed();
  if (slots_->value() > 0) row.trialSlots = QString::number(slots_->value());
  return row;
}

void AxesEditor::updateSearchFields() {
  const auto kind = static_cast<engine::SearchKind>(kind_->currentData().toInt());
  trials_->setEnabled(editable_ && kind != engine::SearchKind::Grid);
  rungs_->setEnabled(editable_ && kind == engine::SearchKind::Halving);
}

void AxesEditor::setCell(int axis, Column column, const QString& text) {
  if (axis < 0 || axis >= table_->rowCount() || column == KindColumn) return;
  table_->item(axis, column)->setText(text);  // itemChanged emits edited()
}

void AxesEditor::setKind(int axis, engine::AxisKind kind) {
  auto* combo = qobject_cast<QComboBox*>(table_->cellWidget(axis, KindColumn));
  if (combo != nullptr) combo->setCurrentIndex(combo->findData(static_cast<int>(kind)));
}

void AxesEditor::addAxis() {
  const int row = table_->rowCount();
  table_->insertRow(row);
  fillRow(row, AxisRow{});
  table_->setCurrentCell(row, KeyColumn);
  table_->editItem(table_->item(row, KeyColumn));
  emitEdited();
}

void AxesEditor::removeAxis(int axis) {
  if (axis < 0 || axis >= table_->rowCount()) return;
  table_->removeRow(axis);
  emitEdited();
}

void AxesEditor::markProblem(int axis, const QString& field, const QString& message) {
  clearProblem();
  // The problem's words are in the panel's notice; the field is only marked.
  const auto mark = [](QWidget* widget) {
    widget->setStyleSheet(QStringLiteral("background: #ffd6d6;"));
  };
  if (axis >= 0 && axis < table_->rowCount()) {
    int column = -1;
    if (field == QLatin1String("key")) column = KeyColumn;
    if (field == QLatin1String("values") || field == QLatin1String("cells")) column = ValuesColumn;
    if (field == QLatin1String("range") || field == QLatin1String("log_range")) column = FromColumn;
    if (field == QLatin1String("count")) column = CountColumn;
    if (field == QLatin1String("match_parameters")) column = MatchColumn;
    const bool wasFilling = filling_;
    filling_ = true;
    for (int c = 0; c < ColumnCount; ++c) {
      QTableWidgetItem* cell = table_->item(axis, c);
      if (cell == nullptr ||
          !(column < 0 || c == column || (column == FromColumn && c == ToColumn))) {
        continue;
      }
      cell->setBackground(kProblem);
      cell->setToolTip(message);
    }
    filling_ = wasFilling;
  } else if (field.startsWith(QLatin1String("search.trials"))) {
    mark(trials_);
  } else if (field.startsWith(QLatin1String("search.rungs"))) {
    mark(rungs_);
  } else if (field.startsWith(QLatin1String("search"))) {
    mark(kind_);
  } else if (field == QLatin1String("seeds")) {
    mark(seeds_);
  } else if (field == QLatin1String("slots")) {
    mark(slots_);
  }
}

void AxesEditor::clearProblem() {
  const bool wasFilling = filling_;
  filling_ = true;
  for (int row = 0; row < table_->rowCount(); ++row) {
    for (int c = 0; c < ColumnCount; ++c) {
      if (QTableWidgetItem* cell = table_->item(row, c)) cell->setToolTip(QString());
    }
    updateRowFlags(row);
  }
  for (QWidget* widget : std::initializer_list<QWidget*>{kind_, trials_, rungs_, seeds_, slots_}) {
    widget->setStyleSheet(QString());
  }
  filling_ = wasFilling;
}

void AxesEditor::setEditable(bool editable) {
  if (editable == editable_) return;
  editable_ = editable;
  const bool wasFilling = filling_;
  filling_ = true;
  for (int row = 0; row < table_->rowCount(); ++row) {
    if (QWidget* combo = table_->cellWidget(row, KindColumn)) combo->setEnabled(editable);
    updateRowFlags(row);
  }
  filling_ = wasFilling;
  add_->setEnabled(editable);
  remove_->setEnabled(editable && table_->currentRow() >= 0);
  kind_->setEnabled(editable);
  seeds_->setEnabled(editable);
  slots_->setEnabled(editable);
  updateSearchFields();
}

}  // namespace mrnn::widgets
