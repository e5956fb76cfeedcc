#pragma once

#include <QUndoCommand>

#include "engine/config/project_file.h"

namespace mrnn::widgets {

class ProjectDocument;

// One edit of a project: the whole project before and after (projects are small, and a
// snapshot makes every edit undoable the same way, whichever panel made it).
class ProjectEditCommand : public QUndoCommand {
 public:
  ProjectEditCommand(ProjectDocument& document, engine::Project before, engine::Project after,
                     const QString& label, int mergeKey);

  void undo() override;
  void redo() override;
  int id() const override { return mergeKey_ == 0 ? -1 : mergeKey_; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  ProjectDocument& document_;
  engine::Project before_;
  engine::Project after_;
  int mergeKey_;
};

}  // namespace mrnn::widgets
