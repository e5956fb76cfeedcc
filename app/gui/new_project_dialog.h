#pragma once

#include <QDialog>
#include <QList>

#include "app/gui/template_catalog.h"

class QListWidget;
class QLabel;

namespace mrnn::app {

// File > New: pick a template; the new project is untitled until saved.
class NewProjectDialog : public QDialog {
  Q_OBJECT

 public:
  NewProjectDialog(const QList<ProjectTemplate>& templates, QWidget* parent = nullptr);
  // The chosen template's project.yaml; empty when none.
  QString chosenPath() const;

 private:
  void showDescription();

  QList<ProjectTemplate> templates_;
  QListWidget* list_;
  QLabel* description_;
};

}  // namespace mrnn::app
