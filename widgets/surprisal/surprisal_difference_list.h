#pragma once

#include <QString>
#include <QTableWidget>

namespace mrnn::engine {
struct SurprisalDifference;
struct TextScore;
}  // namespace mrnn::engine

namespace mrnn::widgets {

// The symbols where two models' surprisal differs most, largest |A − B| first: each row the
// symbol in a few symbols of its context, both models' bits and the difference on the same
// diverging colour as the text. Choosing a row shows the symbol in the text.
class SurprisalDifferenceList : public QTableWidget {
  Q_OBJECT

 public:
  // Symbols of context shown on each side of the one listed.
  static constexpr int kContext = 8;

  explicit SurprisalDifferenceList(QWidget* parent = nullptr);

  // `score` is model A's (its symbols give the text); `wordLevel`: words, space-separated.
  void showDifference(const engine::TextScore& score, const engine::SurprisalDifference& difference,
                      const QString& nameA, const QString& nameB, bool wordLevel);
  void clearDifference();
  // The text position of row `row`'s symbol; -1 for none.
  int symbolOfRow(int row) const;

 signals:
  void symbolChosen(int index);
};

}  // namespace mrnn::widgets
