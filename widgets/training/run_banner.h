#pragma once

#include <QFrame>
#include <QString>

class QLabel;
class QToolButton;

namespace mrnn::widgets {

// A non-modal notice across the top of a panel: a run finished (green), was stopped
// (neutral) or failed (red, with the reason). It stays until closed or replaced, so a
// researcher who comes back later still sees how the run ended.
class RunBanner : public QFrame {
  Q_OBJECT

 public:
  enum class Kind { Success, Information, Failure };

  explicit RunBanner(QWidget* parent = nullptr);

  void showMessage(Kind kind, const QString& title, const QString& detail = QString());
  Kind kind() const { return kind_; }
  // The whole message, title and detail.
  QString text() const;

 private:
  QLabel* icon_ = nullptr;
  QLabel* label_ = nullptr;
  QToolButton* close_ = nullptr;
  Kind kind_ = Kind::Information;
  QString title_;
  QString detail_;
};

}  // namespace mrnn::widgets
