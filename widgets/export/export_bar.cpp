#include "widgets/export/export_bar.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QToolButton>
#include <exception>

#include "widgets/export/figure_export.h"

namespace mrnn::widgets {

ExportBar::ExportBar(QString baseName, FigureWriter figure, CsvMaker csv, QWidget* parent)
    : QWidget(parent),
      baseName_(std::move(baseName)),
      writeFigure_(std::move(figure)),
      makeCsv_(std::move(csv)),
      lastFolder_(QDir::homePath()) {
  figure_ = new QToolButton(this);
  figure_->setObjectName(QStringLiteral("saveFigureButton"));
  figure_->setText(tr("Save figure..."));
  figure_->setToolTip(tr("Save the plot as PNG, SVG or PDF"));
  csv_ = new QToolButton(this);
  csv_->setObjectName(QStringLiteral("saveCsvButton"));
  csv_->setText(tr("Save numbers..."));
  csv_->setToolTip(tr("Save the numbers behind the plot as CSV"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(figure_);
  layout->addWidget(csv_);
  connect(figure_, &QToolButton::clicked, this, &ExportBar::askFigure);
  connect(csv_, &QToolButton::clicked, this, &ExportBar::askCsv);
  setAvailable(false);
}

void ExportBar::setAvailable(bool available) {
  figure_->setEnabled(available && writeFigure_);
  csv_->setEnabled(available && makeCsv_);
}

QString ExportBar::saveFigureTo(const QString& path) const {
  if (!writeFigure_) return tr("this view has no figure to save");
  if (!isFigurePath(path)) {
    return tr("%1: choose a .png, .svg or .pdf file").arg(QDir::toNativeSeparators(path));
  }
  try {
    writeFigure_(path);
  } catch (const std::exception& error) {
    return QString::fromStdString(error.what());
  }
  return {};
}

QString ExportBar::saveCsvTo(const QString& path) const {
  if (!makeCsv_) return tr("this view has no numbers to save");
  try {
    saveText(path, makeCsv_());
  } catch (const std::exception& error) {
    return QString::fromStdString(error.what());
  }
  return {};
}

void ExportBar::askFigure() {
  QString filter;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Save figure"), QDir(lastFolder_).filePath(baseName_ + QStringLiteral(".png")),
      figureFileFilter(), &filter);
  if (path.isEmpty()) return;
  // No suffix typed: take the one of the chosen filter. The dialog asked only about the name
  // it was given, so a file at the completed name is asked about here.
  if (QFileInfo(path).suffix().isEmpty()) {
    path += filter.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
            : filter.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                    : QStringLiteral(".png");
    if (QFileInfo::exists(path) &&
        QMessageBox::question(
            this, tr("Save figure"),
            tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path)),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
      return;
  }
  lastFolder_ = QFileInfo(path).absolutePath();
  const QString error = saveFigureTo(path);
  if (!error.isEmpty()) {
    QMessageBox::warning(this, tr("Figure not saved"), error);
    return;
  }
  emit saved(path);
}

void ExportBar::askCsv() {
  QString path = QFileDialog::getSaveFileName(
      this, tr("Save numbers"), QDir(lastFolder_).filePath(baseName_ + QStringLiteral(".csv")),
      tr("CSV table (*.csv);;All files (*)"));
  if (path.isEmpty()) return;
  lastFolder_ = QFileInfo(path).absolutePath();
  const QString error = saveCsvTo(path);
  if (!error.isEmpty()) {
    QMessageBox::warning(this, tr("Numbers not saved"), error);
    return;
  }
  emit saved(path);
}

}  // namespace mrnn::widgets
