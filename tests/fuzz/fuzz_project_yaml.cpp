// A project file through the whole project check (engine/config/project_file.h), and the
// editor that keeps its owner's text (engine/config/project_text.h): what parses is edited in
// place, and the edit must read back as the project it was made to say.
#include <cstdlib>

#include "engine/config/config_error.h"
#include "engine/config/project_file.h"
#include "engine/config/project_text.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = mrnn::fuzz::asText(data, size);
  mrnn::engine::Project project;
  try {
    project = mrnn::engine::parseProject(text, "project.yaml");
  } catch (const mrnn::engine::ConfigError&) {
    return 0;
  }
  if (project.training.bptt < 1000) project.training.bptt += 1;
  project.model.dropout.hidden = 0.25;
  const auto edited = mrnn::engine::editProjectText(text, project);
  const auto reread = mrnn::engine::parseProject(edited.text, "edited.yaml", false);
  if (mrnn::engine::projectToYaml(reread) != mrnn::engine::projectToYaml(project)) std::abort();
  try {
    mrnn::engine::setProjectKeys(
        text, {{"training.seed", "7"}, {"model.layers[0].hidden_size", "9"}}, "project.yaml");
  } catch (const mrnn::engine::ConfigError&) {
  }
  return 0;
}
