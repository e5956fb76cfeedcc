#include "training_test_project.h"

#include <qcustomplot.h>

#include <QFile>
#include <QStringList>
#include <QTextStream>
#include <cstdint>

#include "widgets/project/project_document.h"

namespace mrnn::widgets::test {

TrainingTestProject::TrainingTestProject() : TrainingTestProject(Options()) {}

TrainingTestProject::TrainingTestProject(const Options& options) {
  QFile corpus(folder_.filePath(QStringLiteral("corpus.txt")));
  if (corpus.open(QIODevice::WriteOnly)) corpus.write(corpusText(8000).toUtf8());
  write(options);
}

QString TrainingTestProject::projectFile() const {
  return folder_.filePath(QStringLiteral("project.yaml"));
}

void TrainingTestProject::write(const Options& options) {
  QFile file(projectFile());
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return;
  QTextStream out(&file);
  out << "name: " << options.name << "\n";
  if (options.additionProblem) {
    out << "model:\n"
        << "  input: {level: word, embedding_size: 0, values: 1}\n"
        << "  layers: [{type: rnn, hidden_size: 8}]\n"
        << "  output: {type: linear}\n"
        << "data:\n"
        << "  synthetic: addition\n"
        << "  problem: {length: 20, train: 1000, valid: 100, test: 100, seed: 1}\n";
  } else {
    out << "model:\n"
        << "  input:\n"
        << "    level: char\n"
        << "    embedding_size: 8\n"
        << "  layers:\n"
        << "    - type: lstm\n"
        << "      hidden_size: " << options.hidden << "\n"
        << "data:\n"
        << "  train: " << options.train << "\n";
  }
  out << "training:\n"
      << "  batch_size: " << options.batchSize << "\n"
      << "  bptt: 16\n"
      << "  max_steps: " << options.maxSteps << "\n"
      << (options.maxSeconds > 0 ? QStringLiteral("  max_seconds: %1\n").arg(options.maxSeconds)
                                 : QString())
      << "  validate_every: " << options.validateEvery << "\n"
      << "  checkpoint_every: " << options.checkpointEvery << "\n"
      << "  threads: 1\n";
  if (options.optimizer.isEmpty()) {
    out << "  optimizer:\n"
        << "    type: adam\n"
        << "    lr: " << options.learningRate << "\n";
  } else {
    out << "  optimizer: " << options.optimizer << "\n";
  }
  out << "evaluation:\n"
      << "  batch_size: 4\n"
      << "  bptt: 32\n";
}

QString TrainingTestProject::loadInto(ProjectDocument& document) const {
  try {
    document.load(projectFile());
  } catch (const std::exception& error) {
    return QString::fromUtf8(error.what());
  }
  return QString();
}

QString TrainingTestProject::corpusText(int bytes) {
  static const QStringList words = {
      QStringLiteral("the"),   QStringLiteral("king"),  QStringLiteral("and"),
      QStringLiteral("queen"), QStringLiteral("speak"), QStringLiteral("of"),
      QStringLiteral("love"),  QStringLiteral("war"),   QStringLiteral("in"),
      QStringLiteral("a"),     QStringLiteral("cold"),  QStringLiteral("night"),
      QStringLiteral("while"), QStringLiteral("we"),    QStringLiteral("wait"),
      QStringLiteral("for"),   QStringLiteral("dawn")};
  QString text;
  uint32_t state = 12345;
  int inLine = 0;
  while (text.size() < bytes) {
    state = state * 1664525u + 1013904223u;  // a fixed LCG: the same text on every machine
    text += words[static_cast<int>((state >> 16) % static_cast<uint32_t>(words.size()))];
    if (++inLine == 9) {
      text += QStringLiteral(".\n");
      inLine = 0;
    } else {
      text += QLatin1Char(' ');
    }
  }
  return text.left(bytes);
}

QVector<double> keysOf(const QCPGraph* graph) {
  QVector<double> keys;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
    keys.append(it->key);
  }
  return keys;
}

QVector<double> valuesOf(const QCPGraph* graph) {
  QVector<double> values;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
    values.append(it->value);
  }
  return values;
}

}  // namespace mrnn::widgets::test
