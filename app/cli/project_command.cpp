#include "project_command.h"

#include <ostream>
#include <string>
#include <vector>

#include "engine/config/config_error.h"
#include "engine/config/project_text.h"
#include "engine/io/atomic_file.h"
#include "engine/io/output_file.h"

namespace mrnn::app {
namespace {

const char* kUsage =
    "usage: mrnn project set <project.yaml> KEY=VALUE [KEY=VALUE ...]\n"
    "       mrnn project unset <project.yaml> KEY [KEY ...]\n"
    "  KEY as experiment axes write it (training.optimizer.lr, model.layers[0].hidden_size);\n"
    "  VALUE is YAML (0.003, true, [1, 2], 'a: quoted text'). Only the named keys change:\n"
    "  comments, order and layout stay. The result must be a valid project, or nothing is\n"
    "  written. Example: mrnn project set project.yaml training.optimizer.lr=0.003\n";

}  // namespace

int runProjectCommand(const CommandLine& args, std::ostream& out, std::ostream& err) {
  const auto& words = args.positional();
  const bool set = words.size() >= 2 && words[1] == "set";
  const bool unset = words.size() >= 2 && words[1] == "unset";
  const auto unknown = args.unknownOptions({});
  if ((!set && !unset) || words.size() < 4 || !unknown.empty()) {
    err << kUsage;
    if (!unknown.empty()) err << "unknown option " << unknown.front() << "\n";
    return 2;
  }
  const std::string file = words[2];
  const std::vector<std::string> keys(words.begin() + 3, words.end());
  std::string text;
  try {
    text = engine::readWholeFile(file);
  } catch (const std::exception& error) {
    err << "mrnn: " << error.what() << "\n";
    return 1;
  }
  std::string edited;
  try {
    if (set) {
      std::vector<engine::KeyAssignment> assignments;
      for (const std::string& word : keys) assignments.push_back(engine::parseKeyAssignment(word));
      edited = engine::setProjectKeys(text, assignments, file);
    } else {
      edited = engine::removeProjectKeys(text, keys, file);
    }
  } catch (const engine::ConfigError& error) {
    err << "mrnn: " << error.what() << "\n  (nothing was written)\n";
    return 1;
  }
  if (edited == text) {
    out << "unchanged " << file << "\n";
    return 0;
  }
  engine::rewriteDocument(file, edited);
  out << (set ? "set " : "unset ") << keys.size() << (keys.size() == 1 ? " key" : " keys") << " in "
      << file << "\n";
  return 0;
}

}  // namespace mrnn::app
