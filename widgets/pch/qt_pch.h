#pragma once
// Precompiled for every Qt translation unit (mrnn_qt_target): QCustomPlot's header pulls in
// most of Qt Widgets, Gui and PrintSupport, ~7 s to parse on two cores, so it is parsed once.
#include <qcustomplot.h>

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QString>
#include <QVBoxLayout>
#include <QWidget>
