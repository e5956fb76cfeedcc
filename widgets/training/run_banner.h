#pragma once

#include <QFrame>
#include <QString>
#include <functional>

class QLabel;
class QToolButton;

namespace mrnn::widgets {

// A non-modal notice across the top of a panel: a run finished (green), was stopped
// (neutral) or failed (red, with the reason). It stays until closed or replaced, so a
// researcher who comes back later still sees how the run ended. A failure shows the first
// line of its reason; the rest (a file's contents, a trace of what was tried) is behind a
// "Details" link.
class RunBanner : public QFrame {
  Q_OBJECT

 public:
  enum class Kind { Success, Information, Failure };

  explicit RunBanner(QWidget* parent = nullptr);

  void showMessage(Kind kind, const QString& title, const QString& detail = QString());
  Kind kind() const { return kind_; }
  // The whole message, title and detail.
  QString text() const;
  // What the banner shows (its first line of the detail, for a failure).
  QString shownText() const;
  // Whether a "Details" link holds more than is shown; showDetails() opens it.
  bool hasDetails() const { return hasDetails_; }
  void showDetails();
  // A link after the message ("Compare the settings…") that runs `action`; the next message
  // drops it.
  void setAction(const QString& text, std::function<void()> action);
  bool hasAction() const { return static_cast<bool>(action_); }
  void triggerAction();

 private:
  QLabel* icon_ = nullptr;
  QLabel* label_ = nullptr;
  QToolButton* close_ = nullptr;
  Kind kind_ = Kind::Information;
  QString title_;
  QString detail_;
  bool hasDetails_ = false;
  QString actionText_;
  std::function<void()> action_;
  void render();
};

}  // namespace mrnn::widgets
