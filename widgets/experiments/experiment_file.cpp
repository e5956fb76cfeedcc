#include "widgets/experiments/experiment_file.h"

#include <yaml-cpp/yaml.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <stdexcept>

#include "engine/config/config_error.h"
#include "engine/config/project_text.h"
#include "engine/io/atomic_file.h"
#include "engine/io/output_file.h"
#include "widgets/native_path.h"

namespace mrnn::widgets {
namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("ExperimentFile", text);
}

std::string trimmed(const QString& text) {
  return text.trimmed().toStdString();
}

QString scalarOf(const YAML::Node& node) {
  return node && node.IsScalar() ? QString::fromStdString(node.Scalar()) : QString();
}

// A sequence's items as one line of YAML flow text without the brackets: "0.001, 0.003".
// The emitter quotes an item that needs it ("a, b"), so the text reads back as the same list.
// A node and everything in it in flow style: a parsed node keeps the style it was written in,
// which overrides the emitter's, and a list written one item a line must still read as items.
void setFlowStyle(YAML::Node node) {
  if (node.IsSequence() || node.IsMap()) node.SetStyle(YAML::EmitterStyle::Flow);
  if (node.IsSequence()) {
    for (YAML::Node item : node) setFlowStyle(item);
  } else if (node.IsMap()) {
    for (auto entry : node) setFlowStyle(entry.second);
  }
}

QString flowItems(const YAML::Node& node) {
  if (!node) return {};
  if (!node.IsSequence()) return QString::fromStdString(YAML::Dump(node)).trimmed();
  const YAML::Node flow = YAML::Clone(node);
  setFlowStyle(flow);
  YAML::Emitter out;
  out << YAML::Flow << flow;
  QString text = QString::fromUtf8(out.c_str()).trimmed();
  if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']'))) {
    text = text.mid(1, text.size() - 2).trimmed();
  }
  return text;
}

// The file's axis the row `i` edits: the one at `i` when it varies the same key, else the first
// that does (an axis removed above it moves it up); none for a new key.
YAML::Node sameAxis(const YAML::Node& oldAxes, size_t i, const QString& key) {
  if (!oldAxes || !oldAxes.IsSequence()) return {};
  const auto varies = [&key](const YAML::Node& axis) {
    return axis.IsMap() && axis["key"] && axis["key"].IsScalar() &&
           QString::fromStdString(axis["key"].Scalar()).trimmed() == key.trimmed();
  };
  if (i < oldAxes.size() && varies(oldAxes[i])) return oldAxes[i];
  for (const YAML::Node& axis : oldAxes) {
    if (varies(axis)) return axis;
  }
  return {};
}

// What the editor has no column for stays as the file wrote it: the other keys an axis sets
// (`also`), the layer a cells axis sizes, and the values' names while there is one per value.
void keepUnshownKeys(const YAML::Node& old, YAML::Node& node) {
  if (!old || !old.IsMap()) return;
  if (old["also"]) node["also"] = YAML::Clone(old["also"]);
  if (old["layer"] && node["cells"]) node["layer"] = YAML::Clone(old["layer"]);
  const YAML::Node list = node["values"] ? node["values"] : node["cells"];
  const YAML::Node names = old["names"];
  if (names && names.IsSequence() && list && list.IsSequence() && names.size() == list.size()) {
    node["names"] = YAML::Clone(names);
  }
}

// "0.001, 0.003" as a YAML flow sequence; a ConfigError at `key` when it is not one.
YAML::Node flowList(const QString& text, const std::string& file, const std::string& key) {
  YAML::Node list;
  try {
    list = YAML::Load("[" + text.toStdString() + "]");
  } catch (const YAML::Exception& error) {
    throw engine::ConfigError(file, 0, 0, key,
                              "'" + text.toStdString() +
                                  "' is not a list of values separated "
                                  "by commas (" +
                                  error.msg + ")");
  }
  if (!list.IsSequence()) {
    throw engine::ConfigError(file, 0, 0, key, "expected values separated by commas");
  }
  list.SetStyle(YAML::EmitterStyle::Flow);
  return list;
}

// A field as a plain scalar (numbers stay numbers to the engine, which reads the text).
YAML::Node scalar(const QString& text) {
  return YAML::Node(trimmed(text));
}

// The comment lines (and blank lines) the file starts with, kept when it is rewritten.
std::string leadingComments(const std::string& text) {
  std::string kept;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    const std::string line =
        text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != '#') break;
    kept += line + "\n";
    if (end == std::string::npos) break;
    at = end + 1;
  }
  // Trailing blank lines are the emitter's business.
  while (kept.size() >= 2 && kept[kept.size() - 1] == '\n' && kept[kept.size() - 2] == '\n') {
    kept.pop_back();
  }
  return kept.find('#') == std::string::npos ? std::string() : kept;
}

const char* kindKey(engine::AxisKind kind) {
  switch (kind) {
    case engine::AxisKind::Range:
      return "range";
    case engine::AxisKind::LogRange:
      return "log_range";
    case engine::AxisKind::Cells:
      return "cells";
    case engine::AxisKind::Values:
      break;
  }
  return "values";
}

QString fieldName(const QString& field) {
  if (field == QLatin1String("values")) return tr("values");
  if (field == QLatin1String("cells")) return tr("cell types");
  if (field == QLatin1String("range") || field == QLatin1String("log_range")) return tr("range");
  if (field == QLatin1String("count")) return tr("count");
  if (field == QLatin1String("match_parameters")) return tr("match parameters");
  if (field == QLatin1String("key")) return tr("key");
  if (field == QLatin1String("layer")) return tr("layer");
  if (field == QLatin1String("search.trials")) return tr("Trials");
  if (field == QLatin1String("search.rungs")) return tr("Rungs");
  if (field.startsWith(QLatin1String("search"))) return tr("Search");
  if (field == QLatin1String("seeds")) return tr("Seeds");
  if (field == QLatin1String("slots")) return tr("Slots");
  if (field == QLatin1String("threads")) return tr("Threads");
  if (field.startsWith(QLatin1String("set."))) return tr("Fixed setting %1").arg(field.mid(4));
  if (field == QLatin1String("set")) return tr("Fixed settings");
  return field;
}

QString shortLabel(const QString& key) {
  QString last = key.section(QLatin1Char('.'), -1);
  const int bracket = last.indexOf(QLatin1Char('['));
  return bracket >= 0 ? last.left(bracket) : last;
}

}  // namespace

bool ExperimentFile::load(const QString& path, QString* problem) {
  path_ = path;
  loaded_ = false;
  text_.clear();
  try {
    text_ = engine::readWholeFile(toNativePath(path));
    YAML::Load(text_);
  } catch (const YAML::Exception& error) {
    if (problem != nullptr) {
      *problem = tr("%1 is not YAML (line %2): %3; fix it in a text editor")
                     .arg(QFileInfo(path).fileName())
                     .arg(error.mark.line + 1)
                     .arg(QString::fromStdString(error.msg));
    }
    return false;
  } catch (const std::exception& error) {
    if (problem != nullptr) *problem = QString::fromUtf8(error.what());
    return false;
  }
  loaded_ = true;
  return true;
}

std::vector<AxisRow> ExperimentFile::axes() const {
  std::vector<AxisRow> rows;
  if (!loaded_) return rows;
  const YAML::Node root = YAML::Load(text_);
  const YAML::Node experiment = root.IsMap() ? root["experiment"] : YAML::Node();
  const YAML::Node axes = experiment && experiment.IsMap() ? experiment["axes"] : YAML::Node();
  if (!axes || !axes.IsSequence()) return rows;
  for (const YAML::Node& node : axes) {
    AxisRow row;
    if (!node.IsMap()) {
      rows.push_back(row);
      continue;
    }
    row.key = scalarOf(node["key"]);
    if (node["cells"]) {
      row.kind = engine::AxisKind::Cells;
      row.values = flowItems(node["cells"]);
    } else if (node["range"] || node["log_range"]) {
      row.kind = node["log_range"] ? engine::AxisKind::LogRange : engine::AxisKind::Range;
      const YAML::Node range = node[node["log_range"] ? "log_range" : "range"];
      if (range.IsSequence() && range.size() >= 1) row.from = scalarOf(range[0]);
      if (range.IsSequence() && range.size() >= 2) row.to = scalarOf(range[1]);
    } else {
      row.values = flowItems(node["values"]);
    }
    row.count = scalarOf(node["count"]);
    row.matchParameters = scalarOf(node["match_parameters"]);
    rows.push_back(row);
  }
  return rows;
}

SearchRow ExperimentFile::search() const {
  SearchRow row;
  if (!loaded_) return row;
  const YAML::Node root = YAML::Load(text_);
  const YAML::Node experiment = root.IsMap() ? root["experiment"] : YAML::Node();
  if (!experiment || !experiment.IsMap()) return row;
  if (const YAML::Node search = experiment["search"]; search && search.IsMap()) {
    const QString kind = scalarOf(search["kind"]);
    row.kind = kind == QLatin1String("random")    ? engine::SearchKind::Random
               : kind == QLatin1String("halving") ? engine::SearchKind::Halving
                                                  : engine::SearchKind::Grid;
    row.trials = scalarOf(search["trials"]);
    row.rungs = flowItems(search["rungs"]);
  }
  row.seeds = flowItems(experiment["seeds"]);
  row.trialSlots = scalarOf(experiment["slots"]);
  return row;
}

std::vector<FixedSetting> ExperimentFile::fixedSettings() const {
  std::vector<FixedSetting> rows;
  if (!loaded_) return rows;
  const YAML::Node root = YAML::Load(text_);
  const YAML::Node experiment = root.IsMap() ? root["experiment"] : YAML::Node();
  const YAML::Node set = experiment && experiment.IsMap() ? experiment["set"] : YAML::Node();
  if (!set || !set.IsMap()) return rows;
  for (const auto& entry : set) {
    const QString key = scalarOf(entry.first);
    if (entry.second.IsScalar()) {
      rows.push_back({key, scalarOf(entry.second)});
    } else {
      YAML::Emitter out;
      out << YAML::Flow << entry.second;
      rows.push_back({key, QString::fromUtf8(out.c_str()).trimmed()});
    }
  }
  return rows;
}

std::string ExperimentFile::compose(const std::vector<AxisRow>& axes, const SearchRow& search,
                                    const std::vector<FixedSetting>& fixed) const {
  const std::string file = toNativePath(path_);
  YAML::Node root;
  try {
    root = YAML::Load(text_);
  } catch (const YAML::Exception&) {
    root = YAML::Node();
  }
  if (!root.IsMap()) root = YAML::Node(YAML::NodeType::Map);
  YAML::Node experiment = root["experiment"];
  if (!experiment.IsMap()) {
    root["experiment"] = YAML::Node(YAML::NodeType::Map);
    experiment = root["experiment"];
  }
  const YAML::Node oldAxes = experiment["axes"];

  YAML::Node list(YAML::NodeType::Sequence);
  for (size_t i = 0; i < axes.size(); ++i) {
    const AxisRow& row = axes[i];
    const std::string at = "experiment.axes[" + std::to_string(i) + "]";
    YAML::Node node(YAML::NodeType::Map);
    if (!row.key.trimmed().isEmpty()) node["key"] = scalar(row.key);
    switch (row.kind) {
      case engine::AxisKind::Values:
      case engine::AxisKind::Cells:
        node[kindKey(row.kind)] = flowList(row.values, file, at + "." + kindKey(row.kind));
        break;
      case engine::AxisKind::Range:
      case engine::AxisKind::LogRange: {
        YAML::Node range(YAML::NodeType::Sequence);
        range.push_back(scalar(row.from));
        range.push_back(scalar(row.to));
        range.SetStyle(YAML::EmitterStyle::Flow);
        node[kindKey(row.kind)] = range;
        if (!row.count.trimmed().isEmpty()) node["count"] = scalar(row.count);
        break;
      }
    }
    if (row.kind == engine::AxisKind::Cells && !row.matchParameters.trimmed().isEmpty()) {
      node["match_parameters"] = scalar(row.matchParameters);
    }
    keepUnshownKeys(sameAxis(oldAxes, i, row.key), node);
    list.push_back(node);
  }
  if (axes.empty()) {
    experiment.remove("axes");
  } else {
    experiment["axes"] = list;
  }

  // The search: a grid is the default and needs no section; the other kinds keep the keys
  // the editor does not show (seed, keep).
  YAML::Node old = experiment["search"] ? YAML::Clone(experiment["search"]) : YAML::Node();
  if (search.kind == engine::SearchKind::Grid) {
    experiment.remove("search");
  } else {
    YAML::Node node(YAML::NodeType::Map);
    node["kind"] = search.kind == engine::SearchKind::Random ? "random" : "halving";
    if (!search.trials.trimmed().isEmpty()) node["trials"] = scalar(search.trials);
    if (old.IsMap() && old["seed"]) node["seed"] = old["seed"];
    if (search.kind == engine::SearchKind::Halving) {
      node["rungs"] = flowList(search.rungs, file, "experiment.search.rungs");
      if (old.IsMap() && old["keep"]) node["keep"] = old["keep"];
    }
    experiment["search"] = node;
  }
  // The fixed settings, in the rows' order; values are YAML (a number, a word, a flow list).
  YAML::Node set(YAML::NodeType::Map);
  for (const FixedSetting& row : fixed) {
    const std::string key = trimmed(row.key);
    if (key.empty()) continue;
    const std::string at = "experiment.set." + key;
    if (set[key]) throw engine::ConfigError(file, 0, 0, at, "the key is set twice");
    YAML::Node value;
    try {
      value = row.value.trimmed().isEmpty() ? YAML::Node() : YAML::Load(trimmed(row.value));
    } catch (const YAML::Exception& error) {
      throw engine::ConfigError(
          file, 0, 0, at, "'" + trimmed(row.value) + "' is not a YAML value (" + error.msg + ")");
    }
    if (!value || value.IsNull()) throw engine::ConfigError(file, 0, 0, at, "give it a value");
    if (!value.IsScalar()) value.SetStyle(YAML::EmitterStyle::Flow);
    set[key] = value;
  }
  if (set.size() == 0) {
    experiment.remove("set");
  } else {
    experiment["set"] = set;
  }
  if (search.seeds.trimmed().isEmpty()) {
    experiment.remove("seeds");
  } else {
    experiment["seeds"] = flowList(search.seeds, file, "experiment.seeds");
  }
  if (search.trialSlots.trimmed().isEmpty()) {
    experiment.remove("slots");
  } else {
    experiment["slots"] = scalar(search.trialSlots);
  }

  YAML::Emitter out;
  out.SetIndent(2);
  out << root;
  const std::string rewritten = std::string(out.c_str()) + "\n";
  try {
    // Only the text of what changed: the researcher's comments and layout stay.
    return engine::editYamlTextToMatch(text_, rewritten);
  } catch (const std::exception&) {
    // A shape the editor cannot place an edit in (an anchored value changed apart from its
    // alias): the file anew, its first comments kept, but only when no other comment would go.
    const std::string kept = leadingComments(text_);
    if (text_.find('#', kept.size()) != std::string::npos) {
      throw engine::ConfigError(file, 0, 0, "experiment",
                                "this change cannot be written without losing the file's "
                                "comments (an anchored value would change apart from its "
                                "alias); make it in the file itself, in a text editor");
    }
    return kept + rewritten;
  }
}

void ExperimentFile::save(const std::string& text) {
  // Edited elsewhere since it was read (a text editor): that text wins; the panel reads it
  // again rather than write an edit of the old one over it.
  if (engine::changedSince(toNativePath(path_), text_)) {
    throw std::runtime_error(toNativePath(path_) +
                             " was changed by another program since it was read here; this "
                             "edit was not written, and the file is read again");
  }
  engine::writeFileAtomically(toNativePath(path_), text);
  text_ = text;
  loaded_ = true;
}

std::string ExperimentFile::starterText(const QString& name) {
  return "# An experiment of this project (docs/experiments.md): each configuration of the\n"
         "# axes trains once per seed, as a run of the project's run store.\n"
         "experiment:\n"
         "  name: " +
         name.toStdString() +
         "\n"
         "  description: learning rate\n"
         "  axes:\n"
         "    - key: training.optimizer.lr\n"
         "      values: [0.001, 0.003]\n"
         "  seeds: [1]\n";
}

QString ExperimentFile::folderOf(const QString& projectFolder) {
  return QDir(projectFolder).filePath(QStringLiteral("experiments"));
}

QStringList ExperimentFile::list(const QString& projectFolder) {
  if (projectFolder.isEmpty()) return {};
  const QDir folder(folderOf(projectFolder));
  QStringList files;
  for (const QFileInfo& entry :
       folder.entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
    files.append(entry.absoluteFilePath());
  }
  return files;
}

bool ExperimentFile::isValidName(const QString& name) {
  static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_.-]+$"));
  return pattern.match(name).hasMatch() && !name.startsWith(QLatin1Char('.'));
}

std::pair<int, QString> ExperimentFile::locate(const std::string& key) {
  static const QRegularExpression axis(QStringLiteral(R"(^experiment\.axes\[(\d+)\](?:\.(\w+))?)"));
  static const QRegularExpression other(
      QStringLiteral(R"(^experiment\.(search(?:\.\w+)?|seeds|slots|threads|set(?:\..+)?))"));
  const QString text = QString::fromStdString(key);
  if (const auto match = axis.match(text); match.hasMatch()) {
    return {match.captured(1).toInt(), match.captured(2)};
  }
  if (const auto match = other.match(text); match.hasMatch()) return {-1, match.captured(1)};
  return {-1, QString()};
}

QString ExperimentFile::describe(const engine::ConfigError& error, const std::vector<AxisRow>& axes,
                                 const QString& unsavedFile) {
  const auto [axis, field] = locate(error.key());
  QString where;
  if (axis >= 0) {
    where = tr("Axis %1").arg(axis + 1);
    if (static_cast<size_t>(axis) < axes.size()) {
      const QString label = shortLabel(axes[static_cast<size_t>(axis)].key.trimmed());
      if (!label.isEmpty()) where += QStringLiteral(" (%1)").arg(label);
    }
    if (!field.isEmpty()) where += QStringLiteral(", ") + fieldName(field);
  } else if (!field.isEmpty()) {
    where = fieldName(field);
  } else if (!error.key().empty() && error.key() != "experiment") {
    where = QString::fromStdString(error.key());  // a key of the base project
  }
  QString text = QString::fromStdString(error.message());
  if (!where.isEmpty()) text = where + QStringLiteral(": ") + text;
  // A line means something only in a file on disk: the base project, or the experiment as
  // read (an edit not yet written has no lines the researcher could look up).
  const QString file = QString::fromStdString(error.file());
  if (error.line() > 0 && (file != unsavedFile || unsavedFile.isEmpty())) {
    text += tr(" (%1, line %2)").arg(QFileInfo(file).fileName()).arg(error.line());
  }
  return text;
}

}  // namespace mrnn::widgets
