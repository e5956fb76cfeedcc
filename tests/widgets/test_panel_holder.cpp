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

// A held panel in a scroll area as the main window docks it, the area `extra` pixels taller
// than the panel's least height (negative: shorter).
struct HeldPanel {
  explicit HeldPanel(int extra) : panel(wrappedPanel()) {
    area.setWidgetResizable(true);
    area.setWidget(new mrnn::widgets::PanelHolder(panel));
    area.resize(600, panel->minimumSizeHint().height() + extra);
    area.show();
  }
  QScrollArea area;
  QWidget* panel;
};

class PanelHolderTest : public QObject {
  Q_OBJECT

 private slots:
  void aPanelWithWrappedTextFitsAboveItsLeastHeight() {
    HeldPanel held(40);
    QVERIFY(QTest::qWaitForWindowExposed(&held.area));
    QTRY_COMPARE(held.area.widget()->height(), held.area.viewport()->height());
    QCOMPARE(held.panel->height(), held.area.viewport()->height());
    QVERIFY(!held.area.verticalScrollBar()->isVisible());
  }

  void aPanelBelowItsLeastHeightScrollsAtItsPreferredHeight() {
    HeldPanel held(-60);
    QVERIFY(QTest::qWaitForWindowExposed(&held.area));
    QTRY_VERIFY(held.area.widget()->height() >= held.panel->sizeHint().height());
    QCOMPARE(held.panel->height(), held.area.widget()->height());
  }

  // A panel that grows after it is shown (a form's rows appearing) makes the area scroll.
  void aPanelThatGrowsIsFollowed() {
    HeldPanel held(40);
    QVERIFY(QTest::qWaitForWindowExposed(&held.area));
    QTRY_VERIFY(!held.area.verticalScrollBar()->isVisible());
    auto* rows = new QWidget;
    rows->setMinimumHeight(400);
    held.panel->layout()->addWidget(rows);
    QTRY_VERIFY(held.area.verticalScrollBar()->isVisible());
    QVERIFY(held.panel->height() >= held.panel->minimumSizeHint().height());
  }
};

QTEST_MAIN(PanelHolderTest)
#include "test_panel_holder.moc"
