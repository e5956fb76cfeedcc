#pragma once

#include <QLabel>
#include <QString>

namespace mrnn::widgets {

// A one-line label that gives up width before its neighbours do: the text is cut with "…" to
// the room the layout leaves it (the whole text in its tooltip), so a long name (a run named
// after its project) does not set the minimum width of a row, and with it of a panel.
class ElidedLabel : public QLabel {
  Q_OBJECT

 public:
  explicit ElidedLabel(QWidget* parent = nullptr);

  void setFullText(const QString& text);
  const QString& fullText() const { return full_; }

  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void elide();

  QString full_;
};

}  // namespace mrnn::widgets
