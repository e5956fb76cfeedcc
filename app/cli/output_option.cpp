#include "output_option.h"

#include <ostream>

#include "engine/io/output_file.h"

namespace mrnn::app {

void writeOutputOption(const CommandLine& args, const std::string& option, const std::string& text,
                       std::ostream& said, const std::vector<std::string>& inputs,
                       const std::vector<std::string>& guarded,
                       const std::vector<std::string>& alike) {
  const std::string path = args.value(option);
  engine::OutputRules rules;
  rules.inputs = inputs;
  rules.guarded = guarded;
  rules.ownOutput = [&](const std::string& existing) {
    if (engine::startsLike(existing, text)) return true;
    for (const std::string& other : alike) {
      if (engine::startsLike(existing, other)) return true;
    }
    return false;
  };
  rules.replaceAny = args.has("force");
  engine::writeOutputFile(path, text, rules);
  said << "wrote " << path << "\n";
}

}  // namespace mrnn::app
