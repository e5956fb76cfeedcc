#include "widgets/model_summary_panel.h"

#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "engine/config/cell_type.h"
#include "engine/config/parameter_count.h"
#include "engine/config/project_file.h"

namespace mrnn::widgets {
namespace {

constexpr int kTablePage = 0;
constexpr int kMessagePage = 1;
constexpr int kColumnPadding = 24;  // pixels

// Byte-level input always has 256 symbols; otherwise the project must say, or the corpus
// will (0: not known yet).
qint64 vocabularyOf(const engine::ModelConfig& model) {
  if (model.input.vocabSize > 0) return model.input.vocabSize;
  return model.input.level == engine::InputLevel::Byte ? 256 : 0;
}

// A fixed locale, so counts read "98,816" whatever the desktop's language (and in tests).
QString formatCount(qint64 value) {
  return QLocale(QLocale::English, QLocale::UnitedStates).toString(value);
}

QTableWidgetItem* textItem(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  return item;
}

QTableWidgetItem* countItem(qint64 value) {
  QTableWidgetItem* item = textItem(formatCount(value));
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QString layerToolTip(engine::CellType type) {
  return QStringLiteral("%1\nParameters: %2\n(I input width, H hidden size, M m size)")
      .arg(QString::fromStdString(engine::cellTypeDescription(type)),
           QString::fromStdString(engine::cellParameterFormula(type)));
}

}  // namespace

ModelSummaryPanel::ModelSummaryPanel(QWidget* parent) : QWidget(parent) {
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("title"));
  QFont titleFont = title_->font();
  titleFont.setBold(true);
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
  title_->setFont(titleFont);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  title_->setWordWrap(true);  // a long name wraps in a narrow dock instead of widening it

  description_ = new QLabel(this);
  description_->setObjectName(QStringLiteral("description"));
  description_->setWordWrap(true);
  description_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setObjectName(QStringLiteral("summaryTable"));
  table_->setHorizontalHeaderLabels(
      {tr("Block"), tr("Type"), tr("Detail"), tr("In"), tr("Out"), tr("Parameters")});
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  QHeaderView* header = table_->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::Interactive);
  // Detail is the free-form column: it takes the spare width so the numbers sit at the right.
  header->setSectionResizeMode(Detail, QHeaderView::Stretch);
  // Headings aligned like the cells under them.
  for (int column = 0; column < ColumnCount; ++column) {
    const bool isCount = column == In || column == Out || column == Parameters;
    table_->horizontalHeaderItem(column)->setTextAlignment(
        (isCount ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
  }

  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("message"));
  message_->setWordWrap(true);
  message_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  stack_ = new QStackedWidget(this);
  stack_->insertWidget(kTablePage, table_);
  stack_->insertWidget(kMessagePage, message_);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addWidget(description_);
  layout->addWidget(stack_, 1);

  title_->setText(tr("No project open"));
  description_->hide();
  showMessage(tr("Open a project file with File > Open\u2026"), false);
}

void ModelSummaryPanel::showProject(const engine::Project& project) {
  title_->setText(QString::fromStdString(project.name));
  const QString description = QString::fromStdString(project.description).trimmed();
  description_->setText(description);
  description_->setVisible(!description.isEmpty());

  const qint64 vocab = vocabularyOf(project.model);
  if (vocab <= 0) {
    showMessage(tr("Vocabulary size not known until a corpus is read: the input and output "
                   "sizes, and so the parameter counts, depend on it."),
                false);
    return;
  }
  fillTable(project, vocab);
  stack_->setCurrentIndex(kTablePage);
}

void ModelSummaryPanel::showError(const QString& message) {
  title_->setText(tr("Could not load the project"));
  description_->clear();
  description_->hide();
  showMessage(message, true);
}

int ModelSummaryPanel::rowCount() const {
  return stack_->currentIndex() == kTablePage ? table_->rowCount() : 0;
}

QString ModelSummaryPanel::message() const {
  return stack_->currentIndex() == kMessagePage ? message_->text() : QString();
}

void ModelSummaryPanel::showMessage(const QString& message, bool isError) {
  table_->setRowCount(0);
  totalParameters_ = 0;
  message_->setText(message);
  // Errors in red so they are not mistaken for a description.
  message_->setStyleSheet(isError ? QStringLiteral("color: #b00020;") : QString());
  stack_->setCurrentIndex(kMessagePage);
}

void ModelSummaryPanel::fillTable(const engine::Project& project, qint64 vocab) {
  const engine::ModelSummary summary = engine::summarizeModel(project.model, vocab);
  const int bodyRows = static_cast<int>(summary.rows.size());
  table_->setRowCount(bodyRows + 1);
  for (int r = 0; r < bodyRows; ++r) {
    const engine::SummaryRow& row = summary.rows[static_cast<size_t>(r)];
    table_->setItem(r, Block, textItem(QString::fromStdString(row.block)));
    table_->setItem(r, Type, textItem(QString::fromStdString(row.kind)));
    table_->setItem(r, Detail, textItem(QString::fromStdString(row.detail)));
    table_->setItem(r, In, countItem(row.inputWidth));
    table_->setItem(r, Out, countItem(row.outputWidth));
    table_->setItem(r, Parameters, countItem(row.parameters));
  }
  // Rows 1..N are the layers, in the order of project.model.layers.
  const size_t layerCount = project.model.layers.size();
  for (size_t i = 0; i < layerCount && static_cast<int>(i) + 1 < bodyRows; ++i) {
    const QString tip = layerToolTip(project.model.layers[i].type);
    const int r = static_cast<int>(i) + 1;
    for (int c = 0; c < ColumnCount; ++c) table_->item(r, c)->setToolTip(tip);
  }

  const int totalRow = bodyRows;
  table_->setItem(totalRow, Block, textItem(tr("total")));
  for (int c : {Type, Detail, In, Out}) table_->setItem(totalRow, c, textItem(QString()));
  table_->setItem(totalRow, Parameters, countItem(summary.totalParameters));
  for (int c = 0; c < ColumnCount; ++c) {
    QTableWidgetItem* item = table_->item(totalRow, c);
    QFont font = item->font();
    font.setBold(true);
    item->setFont(font);
  }
  totalParameters_ = summary.totalParameters;

  // Fit the columns to their contents with some air: exact fits make the numbers of
  // neighbouring columns read as one.
  table_->resizeColumnsToContents();
  for (int c = 0; c < ColumnCount; ++c) {
    if (c != Detail) table_->setColumnWidth(c, table_->columnWidth(c) + kColumnPadding);
  }
}

}  // namespace mrnn::widgets
