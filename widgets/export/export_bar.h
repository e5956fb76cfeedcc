#pragma once

#include <QByteArray>
#include <QString>
#include <QWidget>
#include <functional>

class QToolButton;

namespace mrnn::widgets {

// "Save figure..." and "Save numbers..." for a view with results (the training monitor, every
// analysis view). The view says how to write its figure (saveFigure/savePlot/savePlots/
// saveWidget into the path chosen) and how to produce its CSV; both buttons stay disabled
// until setAvailable(true), i.e. until there is a result.
// Failures are shown in a message box and returned by the save*To() calls tests use.
class ExportBar : public QWidget {
  Q_OBJECT

 public:
  using FigureWriter = std::function<void(const QString& path)>;
  using CsvMaker = std::function<QByteArray()>;

  ExportBar(QString baseName, FigureWriter figure, CsvMaker csv, QWidget* parent = nullptr);

  void setAvailable(bool available);
  // Writes the figure / the CSV to `path` without asking; returns the error in words, or an
  // empty string on success.
  QString saveFigureTo(const QString& path) const;
  QString saveCsvTo(const QString& path) const;

  QToolButton* figureButton() const { return figure_; }
  QToolButton* csvButton() const { return csv_; }

 signals:
  void saved(const QString& path);

 private:
  void askFigure();
  void askCsv();

  QString baseName_;
  FigureWriter writeFigure_;
  CsvMaker makeCsv_;
  QToolButton* figure_ = nullptr;
  QToolButton* csv_ = nullptr;
  QString lastFolder_;
};

}  // namespace mrnn::widgets
