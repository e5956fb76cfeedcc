#pragma once

#include <QUndoCommand>

#include <string>

#include "engine/config/project_file.h"

namespace mrnn::widgets {

class ProjectDocument;

// A project and its file's text at one moment.
struct ProjectState {
  engine::Project project;
  std::string text;
};

// One edit of a project: the whole project and its text before and after (projects are small,
// and a snapshot makes every edit undoable the same way, whichever panel made it; undo gives
// back the very bytes the file had).
class ProjectEditCommand : public QUndoCommand {
 public:
  ProjectEditCommand(ProjectDocument& document, ProjectState before, ProjectState after,
                     const QString& label, int mergeKey);

  void undo() override;
  void redo() override;
  int id() const override { return mergeKey_ == 0 ? -1 : mergeKey_; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  ProjectDocument& document_;
  ProjectState before_;
  ProjectState after_;
  int mergeKey_;
};

}  // namespace mrnn::widgets
