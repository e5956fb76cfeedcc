#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"

namespace mrnn::engine {
class ConfigError;
}

namespace mrnn::widgets {

// One axis as the editor shows it. Every field stays the text the researcher typed, so that
// a bad entry reaches the engine's own checks (and its located message) unchanged.
struct AxisRow {
  QString key;
  engine::AxisKind kind = engine::AxisKind::Values;
  QString values;  // values and cells: "0.001, 0.003" (YAML flow items)
  QString from;    // range and log range
  QString to;
  QString count;            // range and log range; empty: not given
  QString matchParameters;  // cells; empty: not given
};

// The search, seeds and slots as the editor shows them; empty fields are left out of the file.
struct SearchRow {
  engine::SearchKind kind = engine::SearchKind::Grid;
  QString trials;      // random and halving
  QString rungs;       // halving: "200, 400, 800"
  QString seeds;       // "1, 2, 3"
  QString trialSlots;  // `slots:` (a Qt keyword as a name)
};

// One fixed override of the `set:` block: a key path of the project and its value as YAML
// text ("2000", "[64, 64]", "adam").
struct FixedSetting {
  QString key;
  QString value;
  bool operator==(const FixedSetting& other) const {
    return key == other.key && value == other.value;
  }
};

// An experiment file (experiments/NAME.yaml) as the panel edits it: the axes, search, seeds,
// slots and fixed settings (`set:`) are replaced from the editor's rows; everything else the
// file holds (description, base, references, a halving's keep) is kept as written. Only the text of
// what changed is rewritten, so comments and layout stay (engine/config/project_text.h).
class ExperimentFile {
 public:
  // Reads `path`. False, with `problem` in words, when it cannot be read or is not YAML;
  // the rows are then empty.
  bool load(const QString& path, QString* problem);
  bool isLoaded() const { return loaded_; }
  QString path() const { return path_; }
  // The text as last read or written.
  const std::string& text() const { return text_; }

  std::vector<AxisRow> axes() const;
  SearchRow search() const;
  // The `set:` block in the file's order.
  std::vector<FixedSetting> fixedSettings() const;

  // The file's text with `axes`, `search` and `fixed` in place of its own (rows with an
  // empty key are left out). Throws engine::ConfigError (keyed like the engine's,
  // "experiment.axes[1].values", "experiment.set.training.bptt") for a field that is not YAML.
  std::string compose(const std::vector<AxisRow>& axes, const SearchRow& search,
                      const std::vector<FixedSetting>& fixed) const;
  // Writes `text` atomically (engine writeFileAtomically); throws std::runtime_error, and
  // writes nothing, when the file no longer holds the text it was read with (another program
  // changed it).
  void save(const std::string& text);

  // A first experiment: one axis (the learning rate), one seed.
  static std::string starterText(const QString& name);
  // <project folder>/experiments
  static QString folderOf(const QString& projectFolder);
  // The experiment files of a project, sorted by name.
  static QStringList list(const QString& projectFolder);
  // Whether `name` may name an experiment (it names a file and a folder).
  static bool isValidName(const QString& name);

  // A problem in a researcher's words: where it is in the editor ("Axis 2 (lr), values")
  // and the engine's message, with the file and line when they name a file on disk (not
  // `unsavedFile`, whose edited text was checked before it was written).
  static QString describe(const engine::ConfigError& error, const std::vector<AxisRow>& axes,
                          const QString& unsavedFile = QString());
  // The axis (0-based) and the field ("values", "count", "key", ...) a ConfigError key names;
  // an empty field for the axis as a whole; axis -1 for the search fields ("search.kind",
  // "seeds", "slots", ...) and the fixed settings ("set.training.bptt"); axis -1 and an
  // empty field when the key names none of them.
  static std::pair<int, QString> locate(const std::string& key);

 private:
  QString path_;
  std::string text_;
  bool loaded_ = false;
};

}  // namespace mrnn::widgets
