#pragma once

#include <QString>
#include <QTemporaryDir>
#include <QVector>

namespace mrnn::widgets {
class ProjectDocument;
}

class QCPGraph;

namespace mrnn::widgets::test {

// A throw-away project for training tests: a few KB of generated text and a tiny model
// (one 16-unit LSTM layer) that trains in milliseconds a step on one CPU thread.
class TrainingTestProject {
 public:
  struct Options {
    qint64 maxSteps = 30;
    qint64 batchSize = 4;
    qint64 validateEvery = 10;
    qint64 checkpointEvery = 100;
    QString train = QStringLiteral("corpus.txt");  // relative to the project folder
    double learningRate = 0.01;
    qint64 hidden = 16;
    QString name = QStringLiteral("tiny test");
    double maxSeconds = 0.0;  // > 0: training.max_seconds
    QString optimizer;        // training.optimizer as a flow map; empty: Adam at learningRate
    // The addition problem at T = 20 (a real-valued output, squared error) in place of the
    // corpus and its LSTM: an 8-unit tanh RNN.
    bool additionProblem = false;
  };

  TrainingTestProject();
  explicit TrainingTestProject(const Options& options);

  bool isValid() const { return folder_.isValid(); }
  QString folder() const { return folder_.path(); }
  QString projectFile() const;
  // Rewrites project.yaml with other options (the corpus stays).
  void write(const Options& options);
  // Loads project.yaml into `document`; QFAIL-style messages go to the returned text.
  QString loadInto(ProjectDocument& document) const;

  // The generated corpus: deterministic pseudo-English, `bytes` long.
  static QString corpusText(int bytes);

 private:
  QTemporaryDir folder_;
};

// A plot graph's keys (x) and values (y), in order.
QVector<double> keysOf(const QCPGraph* graph);
QVector<double> valuesOf(const QCPGraph* graph);

}  // namespace mrnn::widgets::test
