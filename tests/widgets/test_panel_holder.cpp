// PanelHolder inside a scroll area, as the main window docks every panel: a panel with
// word-wrapped text scrolls only below its least height, and at its preferred height then.

#include <QApplication>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>
#include <QVBoxLayout>

#include "widgets/panel_holder.h"

namespace {

// Like a plot: would have 300 pixels, makes do with 100.
class PlotLike : public QWidget {
 public:
  QSize sizeHint() const override { return {400, 300}; }
  QSize minimumSizeHint() const override { return {200, 100}; }
};

// A panel of a wrapped sentence over a plot-like area.
QWidget* wrappedPanel() {
  auto* panel = new QWidget;
  auto* layout = new QVBoxLayout(panel);
  auto* note =
      new QLabel(QStringLiteral("A sentence long enough to wrap over several lines when "
                                "the panel is narrow, as the panels' notes do."));
  note->setWordWrap(true);
  layout->addWidget(note);
  auto* plot = new PlotLike;
  plot->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  layout->addWidget(plot, 1);
  return panel;
}

}  // namespace

class PanelHolderTest : public QObject {
  Q_OBJECT

 private slots:
  void aPanelWithWrappedTextFitsAboveItsLeastHeight() {
    QScrollArea area;
    area.setWidgetResizable(true);
    QWidget* panel = wrappedPanel();
    area.setWidget(new mrnn::widgets::PanelHolder(panel));
    const int least = panel->minimumSizeHint().height();
    area.resize(600, least + 40);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QTRY_COMPARE(area.widget()->height(), area.viewport()->height());
    QCOMPARE(panel->height(), area.viewport()->height());
    QVERIFY(!area.verticalScrollBar()->isVisible());
  }

  void aPanelBelowItsLeastHeightScrollsAtItsPreferredHeight() {
    QScrollArea area;
    area.setWidgetResizable(true);
    QWidget* panel = wrappedPanel();
    area.setWidget(new mrnn::widgets::PanelHolder(panel));
    const int least = panel->minimumSizeHint().height();
    area.resize(600, least / 2);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QTRY_VERIFY(area.widget()->height() >= panel->sizeHint().height());
    QCOMPARE(panel->height(), area.widget()->height());
  }
};

QTEST_MAIN(PanelHolderTest)
#include "test_panel_holder.moc"
