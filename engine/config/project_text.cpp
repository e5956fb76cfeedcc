#include "engine/config/project_text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "engine/config/config_error.h"
#include "engine/config/yaml_key_path.h"
#include "engine/config/yaml_reader.h"
#include "engine/config/yaml_text_editor.h"

namespace mrnn::engine {
namespace {

// Edits in place converge in a round or two (a value whose default follows another key needs
// a second); more would mean a shape the editor does not understand.
constexpr int kRounds = 4;

}  // namespace

ProjectText editProjectText(const std::string& text, const Project& after) {
  const std::string target = projectToYaml(after);
  try {
    const YAML::Node wanted = YAML::Load(target);
    std::string current = text;
    for (int round = 0; round < kRounds; ++round) {
      const std::string have = projectToYaml(parseProject(current, "", false));
      if (have == target) return {current, false};
      std::vector<YamlEdit> edits = yamlDifferences(YAML::Load(have), wanted);
      if (round == 0) {
        // Keys that only appear because another changed (an optimiser's own settings when its
        // type changes) are written only if their defaults do not already say them.
        edits.erase(std::remove_if(edits.begin(), edits.end(),
                                   [](const YamlEdit& edit) { return edit.added; }),
                    edits.end());
        if (edits.empty()) edits = yamlDifferences(YAML::Load(have), wanted);
      }
      current = applyYamlEdits(current, edits);
    }
  } catch (const std::exception&) {
    // Not a project the parser reads, or a shape the editor cannot place an edit in.
  }
  return {target, true};
}

KeyAssignment parseKeyAssignment(const std::string& word) {
  const size_t equals = word.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw ConfigError("", 0, 0, "",
                      "'" + word + "' is not KEY=VALUE (for example training.optimizer.lr=0.003)");
  }
  return {word.substr(0, equals), word.substr(equals + 1)};
}

std::string setProjectKeys(const std::string& text, const std::vector<KeyAssignment>& assignments,
                           const std::string& file) {
  std::string current = text;
  for (const KeyAssignment& assignment : assignments) {
    YamlEdit edit;
    try {
      edit.path = parseYamlKeyPath(assignment.key);
    } catch (const YamlPathError& error) {
      throw ConfigError(file, 0, 0, assignment.key, error.what());
    }
    try {
      edit.value = YAML::Load(assignment.value);
    } catch (const YAML::Exception& error) {
      throw ConfigError(file, 0, 0, assignment.key,
                        "'" + assignment.value + "' is not a YAML value (" + error.msg + ")");
    }
    try {
      // New keys go where the canonical file writes them, when the text is a project yet.
      takeKeyOrder(edit, YAML::Load(projectToYaml(parseProject(current, "", false))));
    } catch (const std::exception&) {
      edit.orderKnown = false;
    }
    try {
      current = applyYamlEdits(current, {edit});
    } catch (const YamlPathError& error) {
      throw ConfigError(file, 0, 0, assignment.key, error.what());
    }
  }
  parseProject(current, file);
  return current;
}

std::string removeProjectKeys(const std::string& text, const std::vector<std::string>& keys,
                              const std::string& file) {
  std::string current = text;
  for (const std::string& key : keys) {
    YamlEdit edit;
    edit.remove = true;
    try {
      edit.path = parseYamlKeyPath(key);
      const std::string before = current;
      current = applyYamlEdits(current, {edit});
      if (current == before) throw YamlPathError("the file does not set it");
    } catch (const YamlPathError& error) {
      throw ConfigError(file, 0, 0, key, error.what());
    }
  }
  parseProject(current, file);
  return current;
}

std::string editYamlTextToMatch(const std::string& text, const std::string& target) {
  const YAML::Node wanted = loadYamlText(target, "");
  std::string current = text;
  for (int round = 0; round < kRounds; ++round) {
    const YAML::Node have = loadYamlText(current, "");
    if (sameYamlTree(have, wanted)) return current;
    current = applyYamlEdits(current, yamlDifferences(have, wanted));
  }
  throw YamlPathError("the text cannot be edited in place to read as intended");
}

}  // namespace mrnn::engine
