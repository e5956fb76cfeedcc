#pragma once

#include <QList>
#include <QString>

namespace mrnn::app {

struct ProjectTemplate {
  QString folderName;  // "quick-mlstm"
  QString name;        // the project's `name:`
  QString description;
  QString path;  // its project.yaml
};

// The project templates shipped in projects/: the source tree's (a build-tree binary) or the
// installed copy under share/mrnn/projects.
class TemplateCatalog {
 public:
  // Looks in `directories` in order; the first that exists wins.
  explicit TemplateCatalog(QStringList directories);
  // The standard places for this binary.
  static TemplateCatalog standard();

  QString directory() const { return directory_; }
  // Every template that parses, sorted by name; unreadable ones are skipped.
  QList<ProjectTemplate> templates() const;

  // The project opened when the workbench starts with no argument: the user's own copy of
  // the quick-mlstm template under `userFolder` (copied there on first use, so that runs
  // and checkpoints have a writable home). Empty when neither exists nor can be made.
  QString defaultProject(const QString& userFolder) const;
  // The quick-mlstm template's project.yaml, where a project with nothing else to start from
  // begins; empty when the catalogue has none.
  QString starterTemplate() const;

 private:
  QString directory_;
};

}  // namespace mrnn::app
