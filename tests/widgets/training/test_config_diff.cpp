// The config diff: a line diff that marks exactly the lines that changed, and the dialog that
// shows two runs' settings side by side with them coloured.

#include <QPlainTextEdit>
#include <QTest>

#include "widgets/training/config_diff_dialog.h"

using mrnn::widgets::ConfigDiffDialog;
using mrnn::widgets::DiffLine;

class ConfigDiffTest : public QObject {
  Q_OBJECT

 private slots:
  void lineDiffMarksExactlyTheChangedLines() {
    const QStringList left = {"a: 1", "b: 2", "c: 3", "d: 4"};
    const QStringList right = {"a: 1", "b: 20", "c: 3", "d: 4", "e: 5"};
    const QVector<DiffLine> lines = mrnn::widgets::diffLines(left, right);
    QCOMPARE(lines.size(), 6);
    using Kind = DiffLine::Kind;
    const QVector<Kind> kinds = {Kind::Same, Kind::Removed, Kind::Added,
                                 Kind::Same, Kind::Same,    Kind::Added};
    for (int i = 0; i < lines.size(); ++i) QCOMPARE(lines[i].kind, kinds[i]);
    QCOMPARE(lines[1].text, QStringLiteral("b: 2"));
    QCOMPARE(lines[1].leftLine, 2);
    QCOMPARE(lines[2].text, QStringLiteral("b: 20"));
    QCOMPARE(lines[2].rightLine, 2);
    QCOMPARE(lines[5].text, QStringLiteral("e: 5"));
    QCOMPARE(lines[5].rightLine, 5);
    QVERIFY(mrnn::widgets::diffLines(left, left).size() == 4);

    ConfigDiffDialog dialog(QStringLiteral("left"), left.join('\n') + '\n', QStringLiteral("right"),
                            right.join('\n') + '\n');
    QCOMPARE(dialog.removedCount(), 1);
    QCOMPARE(dialog.addedCount(), 2);
    const QStringList shown = dialog.view()->toPlainText().split('\n');
    QCOMPARE(shown.size(), 6);
    QVERIFY(shown[1].contains(QStringLiteral("- b: 2")));
    QVERIFY(shown[2].contains(QStringLiteral("+ b: 20")));
    QCOMPARE(dialog.view()->extraSelections().size(), 3);  // the three changed lines, coloured
  }
};

QTEST_MAIN(ConfigDiffTest)
#include "test_config_diff.moc"
