#pragma once

#include <QDoubleSpinBox>

namespace mrnn::widgets {

// A length of time in seconds, shown as a researcher writes it: "4 s", "1 min 30 s", "2 h",
// and 0 as the special value text ("none"). It takes what it shows back, a bare number as
// seconds, and h:mm:ss as `mrnn runs list` prints durations. The arrows move to the next
// round figure: 5 s below a minute, a minute below an hour, five minutes above.
class DurationSpinBox : public QDoubleSpinBox {
  Q_OBJECT

 public:
  explicit DurationSpinBox(QWidget* parent = nullptr);

  // "1 h 5 min", "0.5 s"; empty for 0.
  static QString durationText(double seconds);
  // Seconds from "90", "90 s", "1.5 min", "1 h 30 min", "1:30:00", "none"; -1 when it reads
  // as none of them.
  static double secondsFrom(const QString& text);

  void stepBy(int steps) override;
  QString textFromValue(double value) const override;
  double valueFromText(const QString& text) const override;
  QValidator::State validate(QString& text, int& position) const override;
};

}  // namespace mrnn::widgets
