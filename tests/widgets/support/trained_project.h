#pragma once

// A throwaway project folder holding a small model trained for a few steps, for the sampler
// tests: run database, best and latest checkpoints, as a real training run leaves them.

#include <QString>
#include <QTemporaryDir>

#include <string>

namespace mrnn::test {

class TrainedProject {
 public:
  // Writes `corpus` (when not empty) as corpus.txt and `yaml` as project.yaml in a fresh
  // temporary folder, then trains the project on the calling thread.
  TrainedProject(const std::string& yaml, const std::string& corpus);

  bool ok() const { return error_.isEmpty(); }
  QString error() const { return error_; }
  QString folder() const { return dir_.path(); }
  QString projectFile() const { return dir_.filePath(QStringLiteral("project.yaml")); }
  qint64 runId() const { return runId_; }
  QString bestCheckpoint() const { return best_; }
  QString latestCheckpoint() const { return latest_; }

 private:
  QTemporaryDir dir_;
  QString error_;
  qint64 runId_ = 0;
  QString best_;
  QString latest_;
};

// Deterministic pseudo-English from a 15-word lexicon (no 'z', 'q', 'x' in it), with
// sentence ends and line breaks: something a tiny model learns in a few dozen steps.
std::string lexiconText(int symbols, unsigned seed = 1);

// A project over corpus.txt at `level` ("char" or "word"): an mLSTM of 16 units (embedding
// 8) trained for `steps` steps with validation and checkpoints every `steps / 2`.
std::string tinyProjectYaml(int steps, const std::string& level = "char");

}  // namespace mrnn::test
