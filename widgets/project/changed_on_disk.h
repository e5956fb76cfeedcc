#pragma once

#include <stdexcept>
#include <string>

namespace mrnn::widgets {

// A save refused because the file was changed by another program (a text editor, `mrnn
// project set`) since the workbench last read or wrote it: writing would lose those changes.
class ChangedOnDisk : public std::runtime_error {
 public:
  explicit ChangedOnDisk(const std::string& path)
      : std::runtime_error("'" + path +
                           "' was changed by another program since the workbench read it; "
                           "saving would replace those changes") {}
};

}  // namespace mrnn::widgets
