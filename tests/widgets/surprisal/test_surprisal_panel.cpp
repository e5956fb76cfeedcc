#include <qcustomplot.h>
#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHelpEvent>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextEdit>
#include <QToolTip>
#include <QtTest>

#include <cmath>
#include <fstream>

#include "engine/analysis/loaded_model.h"
#include "engine/scoring/surprisal_difference.h"
#include "engine/scoring/surprisal_recovery.h"
#include "engine/scoring/text_score.h"
#include "file_head.h"
#include "trained_project.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/export/export_bar.h"
#include "widgets/project/project_document.h"
#include "widgets/run_colours.h"
#include "widgets/surprisal/recovery_plot.h"
#include "widgets/surprisal/recovery_table.h"
#include "widgets/surprisal/surprisal_difference_list.h"
#include "widgets/surprisal/surprisal_legend.h"
#include "widgets/surprisal/surprisal_panel.h"
#include "widgets/surprisal/surprisal_scale.h"
#include "widgets/surprisal/surprisal_text_view.h"

using namespace mrnn;
using namespace mrnn::widgets;

namespace {

const double kLn2 = std::log(2.0);

engine::SymbolScore symbol(int64_t id, const std::string& text, double bits, int64_t rank,
                           std::vector<engine::SymbolScore::Alternative> alternatives) {
  engine::SymbolScore s;
  s.id = id;
  s.text = text;
  s.bits = bits;
  s.probability = std::exp(-bits * kLn2);
  s.rank = rank;
  s.alternatives = std::move(alternatives);
  return s;
}

// Five symbols "ab c\n": a is not predicted; b at 0 bits (the top choice), the space at 1 bit
// (rank 2), c at 8 bits (rank 150), the line break at 3 bits (rank 7).
engine::TextScore handBuiltScore() {
  engine::TextScore score;
  engine::SymbolScore first;
  first.id = 1;
  first.text = "a";
  first.predicted = false;
  score.symbols.push_back(first);
  score.symbols.push_back(symbol(2, "b", 0.0, 1, {{2, "b", 1.0}, {1, "a", 0.0}}));
  score.symbols.push_back(symbol(0, " ", 1.0, 2, {{4, "d", 0.5}, {0, " ", 0.5}}));
  score.symbols.push_back(symbol(
      3, "c", 8.0, 150,
      {{1, "a", 0.4}, {5, "e", 0.2}, {0, " ", 0.125}, {6, "\n", 0.0625}, {2, "b", 0.03125}}));
  score.symbols.push_back(symbol(6, "\n", 3.0, 7, {{1, "a", 0.5}}));
  score.predictedSymbols = 4;
  score.totalBits = 12.0;
  score.bitsPerSymbol = 3.0;
  return score;
}

// Two models, K = 2, every loss a whole number of bits (in nats).
engine::RecoveryTable handBuiltRecovery() {
  engine::RecoveryTable table;
  table.topFraction = 0.1;
  table.offsets = 2;
  table.positions = 100;
  table.surprising = 10;
  table.offsetCounts = {9, 8};
  table.overallMean = {2.0 * kLn2, 3.0 * kLn2};
  table.surprisingMean = {6.0 * kLn2, 7.0 * kLn2};
  table.offsetMean = {{4.0 * kLn2, 2.5 * kLn2}, {5.0 * kLn2, 3.5 * kLn2}};
  return table;
}

QString cellText(QTableWidget* table, int row, int column) {
  auto* item = table->item(row, column);
  return item ? item->text() : QString();
}

}  // namespace

class SurprisalPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    trained_ =
        std::make_unique<test::TrainedProject>(test::tinyProjectYaml(60), test::lexiconText(3000));
    QVERIFY2(trained_->ok(), qPrintable(trained_->error()));
  }

  void scaleHasItsKnownColours() {
    QCOMPARE(SurprisalScale::bitsColour(0.0), QColor(0xff, 0xff, 0xff));
    QCOMPARE(SurprisalScale::bitsColour(1.0), QColor(0xfe, 0xe0, 0xd2));
    QCOMPARE(SurprisalScale::bitsColour(8.0), QColor(0x67, 0x00, 0x0d));
    QCOMPARE(SurprisalScale::bitsColour(30.0), QColor(0x67, 0x00, 0x0d));
    // Halfway between 0 and 1 bit: halfway between white and #fee0d2.
    QCOMPARE(SurprisalScale::bitsColour(0.5), QColor(0xff, 0xf0, 0xe9));
    QCOMPARE(SurprisalScale::rankBucket(1), 0);
    QCOMPARE(SurprisalScale::rankBucket(10), 1);
    QCOMPARE(SurprisalScale::rankBucket(11), 2);
    QCOMPARE(SurprisalScale::rankBucket(100), 2);
    QCOMPARE(SurprisalScale::rankBucket(101), 3);
    // White text where the red is dark, dark text elsewhere.
    QCOMPARE(SurprisalScale::textOn(SurprisalScale::bitsColour(8.0)), QColor(Qt::white));
    QVERIFY(SurprisalScale::textOn(SurprisalScale::bitsColour(2.0)) != QColor(Qt::white));
    // A saturated red (luminance 0.196): white reads better than near-black there.
    QCOMPARE(SurprisalScale::textOn(QColor(0xe0, 0x40, 0x30)), QColor(Qt::white));
    // And every shade of the scale gets the more legible of the two.
    for (double bits = 0.0; bits <= 14.0; bits += 0.25) {
      const QColor back = SurprisalScale::bitsColour(bits);
      const auto contrast = [&back](const QColor& text) {
        const auto lum = [](const QColor& c) {
          const auto lin = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
          };
          return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
        };
        const double a = lum(back), b = lum(text);
        return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
      };
      const QColor chosen = SurprisalScale::textOn(back);
      const QColor other =
          chosen == QColor(Qt::white) ? QColor(0x1a, 0x1a, 0x1a) : QColor(Qt::white);
      QVERIFY2(contrast(chosen) >= contrast(other), qPrintable(back.name()));
    }
  }

  void textViewColoursEachSymbol() {
    SurprisalTextView view;
    view.showScore(handBuiltScore());
    QCOMPARE(view.symbolCount(), 5);
    QCOMPARE(view.backgroundAt(0), SurprisalScale::unpredictedColour());
    QCOMPARE(view.backgroundAt(1), QColor(0xff, 0xff, 0xff));
    QCOMPARE(view.backgroundAt(2), QColor(0xfe, 0xe0, 0xd2));
    QCOMPARE(view.backgroundAt(3), QColor(0x67, 0x00, 0x0d));
    QCOMPARE(view.backgroundAt(4), QColor(0xfc, 0x92, 0x72));  // 3 bits
    // Whitespace stays visible: the space as ·, the line break as ↵ and a real break.
    QCOMPARE(view.shownText(0), QString("a"));
    QCOMPARE(view.shownText(2), QString(QChar(0x00B7)));
    QCOMPARE(view.shownText(4), QString(QChar(0x21B5)) + "\n");
    QCOMPARE(view.textEdit()->document()->blockCount(), 2);

    QVERIFY2(view.summary().contains("5 symbols (4 predicted)"), qPrintable(view.summary()));
    QVERIFY(view.summary().contains("3.000 bits per symbol"));
    QVERIFY(view.summary().contains("12.0 bits in all"));

    // GLTR's buckets: top 1, top 10, top 100, the rest.
    view.colourByCombo()->setCurrentIndex(1);
    QCOMPARE(view.colourBy(), ColourBy::Rank);
    QCOMPARE(view.legend()->colourBy(), ColourBy::Rank);
    QCOMPARE(view.backgroundAt(1), SurprisalScale::bucketColour(0));
    QCOMPARE(view.backgroundAt(2), SurprisalScale::bucketColour(1));
    QCOMPARE(view.backgroundAt(3), SurprisalScale::bucketColour(3));
    QCOMPARE(view.backgroundAt(4), SurprisalScale::bucketColour(1));
    QCOMPARE(view.backgroundAt(0), SurprisalScale::unpredictedColour());
    view.setColourBy(ColourBy::Bits);
    QCOMPARE(view.colourByCombo()->currentIndex(), 0);
    QCOMPARE(view.backgroundAt(3), QColor(0x67, 0x00, 0x0d));
  }

  void differenceScaleDiverges() {
    QCOMPARE(SurprisalScale::differenceColour(0.0), QColor(Qt::white));
    QCOMPARE(SurprisalScale::differenceColour(-4.0), QColor(0x21, 0x66, 0xac));
    QCOMPARE(SurprisalScale::differenceColour(-40.0), QColor(0x21, 0x66, 0xac));
    QCOMPARE(SurprisalScale::differenceColour(4.0), QColor(0xb2, 0x18, 0x2b));
    QCOMPARE(SurprisalScale::differenceColour(1.0), QColor(0xfd, 0xdb, 0xc7));
    QCOMPARE(SurprisalScale::differenceColour(-1.0), QColor(0xd1, 0xe5, 0xf0));
    // Blue one way, red the other.
    const QColor better = SurprisalScale::differenceColour(-2.5);
    const QColor worse = SurprisalScale::differenceColour(2.5);
    QVERIFY(better.blue() > better.red() && worse.red() > worse.blue());
  }

  // GLTR's and LSTMVis' comparison: two models' surprisal on the same text, A − B.
  void comparisonColoursByDifferenceAndListsTheLargest() {
    ProjectDocument untitled;
    SurprisalPanel panel(untitled);
    panel.resize(1200, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    engine::TextScore a = handBuiltScore();
    engine::TextScore b = handBuiltScore();
    b.symbols[1].bits = 2.0;  // A better by 2 bits
    b.symbols[3].bits = 5.0;  // A worse by 3 bits
    b.symbols[4].bits = 3.5;  // A better by 0.5
    panel.showScore(a);
    auto* combo = panel.textView()->colourByCombo();
    QCOMPARE(combo->count(), 2);  // bits and rank: nothing to compare yet
    QVERIFY(!panel.differenceBox()->isVisible());
    panel.showComparison(b, "run 1", "run 2");
    QCOMPARE(combo->count(), 3);
    QVERIFY(panel.differenceBox()->isVisible());
    QVERIFY2(panel.textView()->summary().contains("A \u2212 B: <b>+0.125 bits per symbol"),
             qPrintable(panel.textView()->summary()));

    combo->setCurrentIndex(2);
    QCOMPARE(panel.textView()->colourBy(), ColourBy::Difference);
    QCOMPARE(panel.textView()->legend()->colourBy(), ColourBy::Difference);
    QCOMPARE(panel.textView()->backgroundAt(0), SurprisalScale::unpredictedColour());
    QCOMPARE(panel.textView()->backgroundAt(1), SurprisalScale::differenceColour(-2.0));
    QCOMPARE(panel.textView()->backgroundAt(2), QColor(Qt::white));  // they agree
    QCOMPARE(panel.textView()->backgroundAt(3), SurprisalScale::differenceColour(3.0));
    const QString tip = panel.textView()->toolTipFor(3);
    QVERIFY2(tip.contains("A (run 1): 8.00 bits") && tip.contains("B (run 2): 5.00 bits") &&
                 tip.contains("&minus; B: +3.00"),
             qPrintable(tip));

    // The list: largest |A − B| first, each choosing its symbol in the text.
    auto* list = panel.differenceList();
    QCOMPARE(list->rowCount(), 4);
    QCOMPARE(list->symbolOfRow(0), 3);
    QCOMPARE(list->symbolOfRow(1), 1);
    QCOMPARE(list->symbolOfRow(2), 4);
    QCOMPARE(list->item(0, 3)->text(), QString("+3.00"));
    QCOMPARE(list->item(1, 3)->text(), QString("\u22122.00"));
    QCOMPARE(list->item(0, 3)->background().color(), SurprisalScale::differenceColour(3.0));
    QVERIFY2(list->item(0, 0)->text().contains("\u2039c\u203a"),
             qPrintable(list->item(0, 0)->text()));
    list->setCurrentCell(1, 0);
    QCOMPARE(panel.textView()->textEdit()->textCursor().selectedText(), QString("b"));
    list->setCurrentCell(0, 0);
    QCOMPARE(panel.textView()->textEdit()->textCursor().selectedText(), QString("c"));

    // The text's export carries both models' bits.
    QTemporaryDir dir;
    QCOMPARE(panel.textExport()->saveCsvTo(dir.filePath("ab.csv")), QString());
    const QByteArray csv = test::fileHead(dir.filePath("ab.csv"), 4096);
    QVERIFY2(csv.startsWith("position,id,symbol,bits_a,bits_b,difference\n"), csv.constData());
    QVERIFY2(csv.contains("\n3,3,c,8,5,3\n"), csv.constData());

    // A new score without a second model: back to bits, the list gone.
    panel.showScore(a);
    QCOMPARE(combo->count(), 2);
    QCOMPARE(panel.textView()->colourBy(), ColourBy::Bits);
    QCOMPARE(panel.textView()->backgroundAt(3), QColor(0x67, 0x00, 0x0d));
    QVERIFY(!panel.differenceBox()->isVisible());
    QVERIFY(!panel.textView()->difference());
    // A score of other symbols is refused, never drawn against the wrong text.
    engine::TextScore other = handBuiltScore();
    other.symbols[2].id = 5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, panel.showComparison(other, "x", "y"));
    QCOMPARE(combo->count(), 2);
  }

  void tooltipListsProbabilityRankAndAlternatives() {
    SurprisalTextView view;
    view.showScore(handBuiltScore());
    const QString tip = view.toolTipFor(3);
    QVERIFY2(tip.contains("<b>c</b>"), qPrintable(tip));
    QVERIFY(tip.contains("symbol 4 of 5"));
    QVERIFY(tip.contains("p = 0.00391"));
    QVERIFY(tip.contains("8.00 bits"));
    QVERIFY(tip.contains("rank 150"));
    QVERIFY(tip.contains("top 5"));
    // The alternatives in the model's order, with their probabilities; the line break and
    // the space named visibly.
    const QStringList rows{"1.&nbsp;</td><td>a&nbsp;&nbsp;</td><td align=\"right\">0.400",
                           "2.&nbsp;</td><td>e&nbsp;&nbsp;</td><td align=\"right\">0.200",
                           "3.&nbsp;</td><td>" + QString(QChar(0x2423)),
                           "4.&nbsp;</td><td>" + QString(QChar(0x21B5)),
                           "5.&nbsp;</td><td>b&nbsp;&nbsp;</td><td align=\"right\">0.031"};
    int at = 0;
    for (const QString& row : rows) {
      const int found = tip.indexOf(row, at);
      QVERIFY2(found > at, qPrintable(row + " not in order in " + tip));
      at = found;
    }
    // The actual symbol is marked where it appears among the alternatives.
    const QString top = view.toolTipFor(1);
    QVERIFY2(top.contains("rank 1 (the model's top choice)"), qPrintable(top));
    QVERIFY(top.contains("<b>b</b> &#9664;"));
    QVERIFY(top.contains("p = 1.000"));
    QVERIFY(view.toolTipFor(2).contains("p = 0.500"));
    QVERIFY(view.toolTipFor(2).contains("1.00 bits"));
    QVERIFY(view.toolTipFor(0).contains("Not predicted"));
  }

  void hoverShowsTheSymbolsTooltip() {
    SurprisalTextView view;
    view.resize(500, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.showScore(handBuiltScore());
    QWidget* viewport = view.textEdit()->viewport();
    for (int i = 0; i < view.symbolCount(); ++i) {
      const QRect rect = view.symbolRect(i);
      QVERIFY2(!rect.isEmpty(), qPrintable(QString::number(i)));
      QCOMPARE(view.symbolAt(rect.center()), i);
    }
    QCOMPARE(view.symbolAt(QPoint(viewport->width() - 5, viewport->height() - 5)), -1);
    const QPoint point = view.symbolRect(3).center();
    QHelpEvent event(QEvent::ToolTip, point, viewport->mapToGlobal(point));
    QApplication::sendEvent(viewport, &event);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), view.toolTipFor(3));
    QToolTip::hideText();
  }

  void wordsAreSeparatedAndLinesBreakAtEos() {
    engine::TextScore score;
    const std::vector<std::string> words{"the", "cat", "<eos>", "sat"};
    for (size_t i = 0; i < words.size(); ++i) {
      score.symbols.push_back(symbol(static_cast<int64_t>(i), words[i], 1.0, 1, {}));
    }
    score.symbols[0].predicted = false;
    SurprisalTextView view;
    view.showScore(score, /*wordLevel=*/true);
    QCOMPARE(view.textEdit()->toPlainText(), QString("the cat ") + QChar(0x21B5) + "\nsat");
    QCOMPARE(view.shownText(1), QString("cat"));
    QCOMPARE(view.backgroundAt(3), QColor(0xfe, 0xe0, 0xd2));
    // The separating space is not coloured.
    QTextCursor cursor(view.textEdit()->document());
    cursor.setPosition(4);  // after "the "
    QCOMPARE(cursor.charFormat().background().style(), Qt::NoBrush);
  }

  void recoveryPlotShowsBitsPerModel() {
    ProjectDocument document;
    SurprisalPanel panel(document);
    panel.showRecovery(handBuiltRecovery(), {"LSTM", "mLSTM"});
    RecoveryPlot* plot = panel.recoveryPlot();
    QCOMPARE(plot->modelCount(), 2);
    const QVector<QVector<double>> expected{{6.0, 4.0, 2.5}, {7.0, 5.0, 3.5}};
    for (int m = 0; m < 2; ++m) {
      QCPGraph* curve = plot->curve(m);
      QCOMPARE(curve->dataCount(), 3);
      for (int k = 0; k < 3; ++k) {
        QCOMPARE(curve->data()->at(k)->key, static_cast<double>(k));
        QVERIFY(std::abs(curve->data()->at(k)->value - expected[m][k]) < 1e-12);
      }
      QVERIFY(curve->scatterStyle().shape() != QCPScatterStyle::ssNone);
      QCPGraph* overall = plot->overallLine(m);
      QCOMPARE(overall->dataCount(), 2);
      QCOMPARE(overall->pen().style(), Qt::DashLine);
      QCOMPARE(overall->pen().color(), curve->pen().color());
      for (int i = 0; i < 2; ++i) {
        QVERIFY(std::abs(overall->data()->at(i)->value - (2.0 + m)) < 1e-12);
      }
      QVERIFY(overall->data()->at(0)->key < 0.0);
      QVERIFY(overall->data()->at(1)->key > 2.0);
    }
    QVERIFY(plot->curve(0)->pen().color() != plot->curve(1)->pen().color());
    // The legend names the models only, not the dashed lines.
    QCOMPARE(plot->legend->itemCount(), 2);
    QCOMPARE(plot->curve(0)->name(), QString("LSTM"));
    QCOMPARE(plot->curve(1)->name(), QString("mLSTM"));
    QVERIFY(plot->legend->hasItemWithPlottable(plot->curve(0)));
    QVERIFY(plot->legend->hasItemWithPlottable(plot->curve(1)));
    QVERIFY(!plot->legend->hasItemWithPlottable(plot->overallLine(0)));
    QCOMPARE(plot->yAxis->label(), QString("mean loss (bits per symbol)"));
    QVERIFY(plot->yAxis->range().upper > 7.0);
    QVERIFY(plot->title()->text().contains("10 % (10 of 100 positions)"));
    auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(0.0), QString("surprising"));
    QCOMPARE(ticker->ticks().value(2.0), QString("+2"));
  }

  void recoveryTableHoldsTheNumbers() {
    ProjectDocument document;
    SurprisalPanel panel(document);
    panel.showRecovery(handBuiltRecovery(), {"LSTM", "mLSTM"});
    QTableWidget* table = panel.recoveryTable();
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->columnCount(), 4);
    const QStringList columns{"overall", "surprising", "+1", "+2"};
    for (int c = 0; c < 4; ++c) QCOMPARE(table->horizontalHeaderItem(c)->text(), columns[c]);
    QCOMPARE(table->verticalHeaderItem(0)->text(), QString("LSTM"));
    QCOMPARE(table->verticalHeaderItem(1)->text(), QString("mLSTM"));
    QCOMPARE(table->verticalHeaderItem(2)->text(), QString("positions"));
    const QStringList lstm{"2.000", "6.000", "4.000", "2.500"};
    const QStringList mlstm{"3.000", "7.000", "5.000", "3.500"};
    const QStringList counts{"100", "10", "9", "8"};
    for (int c = 0; c < 4; ++c) {
      QCOMPARE(cellText(table, 0, c), lstm[c]);
      QCOMPARE(cellText(table, 1, c), mlstm[c]);
      QCOMPARE(cellText(table, 2, c), counts[c]);
    }
    QVERIFY(table->item(0, 0)->toolTip().contains("1.3863 nats"));
  }

  void exportsFiguresAndNumbers() {
    ProjectDocument document;
    SurprisalPanel panel(document);
    panel.resize(1000, 800);
    QVERIFY(!panel.textExport()->figureButton()->isEnabled());
    QVERIFY(!panel.recoveryExport()->csvButton()->isEnabled());
    panel.showScore(handBuiltScore());
    panel.showRecovery(handBuiltRecovery(), {"LSTM", "mLSTM"});
    QVERIFY(panel.textExport()->figureButton()->isEnabled());
    QVERIFY(panel.recoveryExport()->csvButton()->isEnabled());
    QTemporaryDir dir;
    const QList<QPair<QString, QByteArray>> formats{{"png", QByteArray("\x89PNG", 4)},
                                                    {"svg", QByteArray("<?xml")},
                                                    {"pdf", QByteArray("%PDF")}};
    for (const auto& [suffix, magic] : formats) {
      const QString text = dir.filePath("text." + suffix);
      const QString recovery = dir.filePath("recovery." + suffix);
      QCOMPARE(panel.textExport()->saveFigureTo(text), QString());
      QCOMPARE(panel.recoveryExport()->saveFigureTo(recovery), QString());
      QCOMPARE(test::fileHead(text, magic.size()), magic);
      QCOMPARE(test::fileHead(recovery, magic.size()), magic);
    }
    QCOMPARE(panel.textExport()->saveCsvTo(dir.filePath("text.csv")), QString());
    const QByteArray textCsv = test::fileHead(dir.filePath("text.csv"), 4096);
    QVERIFY2(
        textCsv.startsWith("position,id,symbol,bits,probability,rank\n0,1,a,,,\n1,2,b,0,1,1\n"),
        textCsv.constData());
    QVERIFY(textCsv.contains("\n3,3,c,8,0.00390625,150\n"));

    QCOMPARE(panel.recoveryExport()->saveCsvTo(dir.filePath("recovery.csv")), QString());
    const QList<QByteArray> lines =
        test::fileHead(dir.filePath("recovery.csv"), 4096).trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 2 * 4);
    QCOMPARE(lines[0], QByteArray("model,offset,mean_nats,count"));
    QVERIFY2(lines[1].startsWith("LSTM,0,4.158883"), lines[1].constData());
    QVERIFY(lines[5].startsWith("mLSTM,0,4.852030"));
    QVERIFY(lines[8].startsWith("mLSTM,all,2.0794415"));
    QVERIFY(lines[8].endsWith(",100"));
  }

  void realRunMatchesScoreTextForTwoModels() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    SurprisalPanel panel(document);
    panel.resize(1200, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.textSource(), int(SurprisalPanel::TextBelow));
    const std::string text = test::lexiconText(600, 11);
    panel.setText(QString::fromStdString(text));
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setComparisonCheckpoint(1, trained_->latestCheckpoint());
    QSignalSpy finished(&panel, &SurprisalPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(!panel.runButton()->isEnabled());
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QVERIFY(panel.runButton()->isEnabled());

    QVERIFY(panel.recovery());
    QCOMPARE(panel.recovery()->overallMean.size(), size_t{2});
    QCOMPARE(panel.recoveryTable()->rowCount(), 3);
    QCOMPARE(panel.recoveryPlot()->modelCount(), 2);
    QCOMPARE(panel.recovery()->positions, static_cast<int64_t>(text.size() - 1));
    QCOMPARE(panel.recoveryLabels().size(), 2);
    QVERIFY(panel.recoveryLabels()[0].startsWith("Run 1"));
    // Each model in its run's colour, the monitor's (run 3 once was green there and orange
    // here); the same run's second checkpoint in a darker shade of it.
    QCOMPARE(panel.recoveryPlot()->curve(0)->pen().color(), mrnn::widgets::runColour(1));
    QCOMPARE(panel.recoveryPlot()->curve(1)->pen().color(),
             mrnn::widgets::runColour(1).darker(150));
    QCOMPARE(panel.recoveryTable()->verticalHeaderItem(0)->foreground().color(),
             mrnn::widgets::runColour(1));

    // The coloured text is engine::scoreText's, symbol for symbol.
    const engine::LoadedModel loaded =
        engine::loadModelFromCheckpoint(trained_->bestCheckpoint().toStdString());
    const engine::TextScore direct =
        engine::scoreText(*loaded.model, loaded.vocabulary, text, "", nullptr, 256, 5);
    const engine::TextScore* shown = panel.score();
    QVERIFY(shown);
    QCOMPARE(shown->symbols.size(), direct.symbols.size());
    for (size_t i = 0; i < direct.symbols.size(); ++i) {
      QCOMPARE(shown->symbols[i].id, direct.symbols[i].id);
      QVERIFY(std::abs(shown->symbols[i].bits - direct.symbols[i].bits) < 1e-9);
      QCOMPARE(shown->symbols[i].rank, direct.symbols[i].rank);
      QCOMPARE(shown->symbols[i].alternatives.size(), static_cast<size_t>(i == 0 ? 0 : 5));
    }
    QVERIFY(std::abs(shown->totalBits - direct.totalBits) < 1e-6);
    // Model A's overall mean loss is the same text's bits per symbol, in nats.
    QVERIFY(std::abs(panel.recovery()->overallMean[0] - direct.bitsPerSymbol * kLn2) < 1e-9);
    QCOMPARE(panel.textView()->symbolCount(), static_cast<int>(text.size()));
    QVERIFY(panel.textExport()->csvButton()->isEnabled());

    // Model B's bits on the same symbols, as scoreText gives them: A − B symbol by symbol.
    const engine::LoadedModel latest =
        engine::loadModelFromCheckpoint(trained_->latestCheckpoint().toStdString());
    const engine::TextScore directB =
        engine::scoreText(*latest.model, latest.vocabulary, text, "", nullptr, 256, 0);
    const engine::SurprisalDifference* difference = panel.textView()->difference();
    QVERIFY(difference);
    QCOMPARE(difference->difference.size(), direct.symbols.size());
    for (size_t i = 1; i < direct.symbols.size(); ++i) {
      QVERIFY(std::abs(difference->difference[i] -
                       (direct.symbols[i].bits - directB.symbols[i].bits)) < 1e-9);
    }
    QVERIFY(panel.differenceBox()->isVisible());
  }

  // What a user sees after comparing a model with a less trained one of the same corpus
  // (same vocabulary): rendered to /tmp/surprisal.png for a look.
  void screenshotComparesTwoModels() {
    test::TrainedProject early(test::tinyProjectYaml(6), test::lexiconText(3000));
    QVERIFY2(early.ok(), qPrintable(early.error()));
    ProjectDocument document;
    document.load(trained_->projectFile());
    SurprisalPanel panel(document);
    panel.resize(1200, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setText(QString::fromStdString(test::lexiconText(900, 11)));
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setComparisonCheckpoint(1, early.bestCheckpoint());
    QSignalSpy finished(&panel, &SurprisalPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    // The less trained model is more surprised everywhere.
    QVERIFY(panel.recovery()->overallMean[1] > panel.recovery()->overallMean[0]);
    QCOMPARE(panel.recoveryPlot()->curve(1)->name(), QString("best.pt"));
    // The better model is less surprised on most symbols: A − B is negative on the whole.
    QVERIFY(panel.textView()->difference()->meanDifference < 0.0);
    // The list gets room beside the text, though it was hidden when the panel was laid out.
    QVERIFY(panel.differenceList()->width() >= panel.differenceList()->minimumSizeHint().width());
    panel.textView()->setColourBy(ColourBy::Difference);
    panel.differenceList()->setCurrentCell(0, 0);
    QVERIFY(panel.grab().save(QStringLiteral("/tmp/surprisal.png")));
  }

  void splitsAreCappedAtMaxSymbols() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    SurprisalPanel panel(document);
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setTextSource(SurprisalPanel::ValidationSplit);
    panel.setMaxSymbols(120);
    panel.setTopFraction(0.25);
    panel.setOffsets(3);
    QSignalSpy finished(&panel, &SurprisalPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QCOMPARE(panel.score()->symbols.size(), size_t{120});
    QCOMPARE(panel.recovery()->positions, int64_t{119});
    QCOMPARE(panel.recovery()->surprising, int64_t{30});  // round(0.25 x 119)
    QCOMPARE(panel.recovery()->offsets, int64_t{3});
    QCOMPARE(panel.recoveryTable()->rowCount(), 2);
    QCOMPARE(panel.recoveryTable()->columnCount(), 5);

    // A text file, read with the model's vocabulary.
    QTemporaryDir dir;
    const QString file = dir.filePath("sample.txt");
    std::ofstream(file.toStdString()) << test::lexiconText(200, 5);
    panel.setTextSource(SurprisalPanel::TextFile);
    panel.setTextFile(file);
    finished.clear();
    panel.runAnalysis();
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel.jobBar()->status()));
    QCOMPARE(panel.score()->symbols.size(), size_t{120});  // still capped
  }

  void cancelLeavesNoResult() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    SurprisalPanel panel(document);
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setText(QString::fromStdString(test::lexiconText(60000, 3)));
    QSignalSpy finished(&panel, &SurprisalPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(panel.jobBar()->isRunning());
    panel.jobBar()->cancelButton()->click();
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY2(panel.jobBar()->status().contains("cancelled"), qPrintable(panel.jobBar()->status()));
    QVERIFY(!panel.score());
    QVERIFY(!panel.recovery());
    QVERIFY(!panel.textExport()->figureButton()->isEnabled());
    QVERIFY(panel.runButton()->isEnabled());
  }

  void unknownSymbolIsNamedInTheJobBar() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    SurprisalPanel panel(document);
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setText("the cat sat on a zebra");  // the lexicon has no 'z'
    QSignalSpy failed(panel.jobBar(), &AnalysisJobBar::failed);
    QSignalSpy finished(&panel, &SurprisalPanel::analysisFinished);
    panel.runAnalysis();
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().first().toBool(), false);
    QCOMPARE(failed.size(), 1);
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains("model A cannot read the text") && reason.contains("'z'") &&
                 reason.contains("not in the vocabulary"),
             qPrintable(reason));
    QVERIFY(panel.jobBar()->status().contains("failed"));
    QVERIFY(!panel.score());
  }

  void otherVocabularyIsRefusedByName() {
    // A word-level model of the same corpus has another vocabulary.
    test::TrainedProject words(test::tinyProjectYaml(2, "word"), test::lexiconText(3000));
    QVERIFY2(words.ok(), qPrintable(words.error()));
    ProjectDocument document;
    document.load(trained_->projectFile());
    SurprisalPanel panel(document);
    panel.setCheckpoint(trained_->bestCheckpoint());
    panel.setComparisonCheckpoint(2, words.bestCheckpoint());  // "model 3", model 2 none
    QCOMPARE(panel.chooser(1)->checkpoint(), QString());
    panel.setText("the cat sat on a mat");
    QSignalSpy failed(panel.jobBar(), &AnalysisJobBar::failed);
    panel.runAnalysis();
    QVERIFY(failed.wait(30000));
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains("model 2 (") && reason.contains("another vocabulary"),
             qPrintable(reason));
    QVERIFY(reason.contains(panel.chooser(2)->label()));
  }

  void missingInputsAreExplained() {
    ProjectDocument untitled;
    SurprisalPanel panel(untitled);
    QSignalSpy failed(panel.jobBar(), &AnalysisJobBar::failed);
    panel.runAnalysis();
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.first().first().toString().contains("no checkpoint chosen"),
             qPrintable(failed.first().first().toString()));

    ProjectDocument document;
    document.load(trained_->projectFile());
    SurprisalPanel withModel(document);
    withModel.setTextSource(SurprisalPanel::TextFile);
    QSignalSpy fileFailed(withModel.jobBar(), &AnalysisJobBar::failed);
    withModel.runAnalysis();
    QVERIFY(fileFailed.wait(10000));
    QVERIFY(fileFailed.first().first().toString().contains("choose a text file"));
  }

 private:
  std::unique_ptr<test::TrainedProject> trained_;
};

QTEST_MAIN(SurprisalPanelTest)
#include "test_surprisal_panel.moc"
