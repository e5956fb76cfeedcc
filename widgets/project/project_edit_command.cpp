#include "widgets/project/project_edit_command.h"

#include "widgets/project/project_document.h"

namespace mrnn::widgets {

ProjectEditCommand::ProjectEditCommand(ProjectDocument& document, ProjectState before,
                                       ProjectState after, const QString& label, int mergeKey)
    : QUndoCommand(label),
      document_(document),
      before_(std::move(before)),
      after_(std::move(after)),
      mergeKey_(mergeKey) {}

void ProjectEditCommand::undo() {
  document_.apply(before_.project, before_.text);
}

void ProjectEditCommand::redo() {
  document_.apply(after_.project, after_.text);
}

bool ProjectEditCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = dynamic_cast<const ProjectEditCommand*>(other);
  if (next == nullptr || next->mergeKey_ != mergeKey_ || next->text() != text()) return false;
  after_ = next->after_;
  return true;
}

}  // namespace mrnn::widgets
