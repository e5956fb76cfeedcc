#include "app/gui/new_project_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace mrnn::app {

NewProjectDialog::NewProjectDialog(const QList<ProjectTemplate>& templates, QWidget* parent)
    : QDialog(parent), templates_(templates) {
  setWindowTitle(tr("New Project"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(tr("Start from a template:"), this));
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("templateList"));
  for (const ProjectTemplate& t : templates_) {
    auto* item = new QListWidgetItem(t.name, list_);
    item->setToolTip(t.path);
  }
  layout->addWidget(list_, 1);
  description_ = new QLabel(this);
  description_->setWordWrap(true);
  description_->setMinimumHeight(70);
  description_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  layout->addWidget(description_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(list_, &QListWidget::currentRowChanged, this, &NewProjectDialog::showDescription);
  connect(list_, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
  if (!templates_.isEmpty()) list_->setCurrentRow(0);
  buttons->button(QDialogButtonBox::Ok)->setEnabled(!templates_.isEmpty());
  resize(520, 380);
}

QString NewProjectDialog::chosenPath() const {
  const int row = list_->currentRow();
  return row >= 0 && row < templates_.size() ? templates_[row].path : QString();
}

void NewProjectDialog::showDescription() {
  const int row = list_->currentRow();
  description_->setText(row >= 0 && row < templates_.size() ? templates_[row].description
                                                            : QString());
}

}  // namespace mrnn::app
