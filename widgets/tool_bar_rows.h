#pragma once

#include <QList>
#include <QWidget>

class QToolBar;
class QVBoxLayout;

namespace mrnn::widgets {

// Tool bars laid out in as few rows as the width allows, in order: a panel too narrow for one
// row wraps its bars rather than hiding controls behind a tool bar's overflow button.
class ToolBarRows : public QWidget {
  Q_OBJECT

 public:
  explicit ToolBarRows(QWidget* parent = nullptr);

  // A new, empty bar at the end (16-pixel icons, text beside them).
  QToolBar* addBar(const QString& objectName);
  // Rows in use at the present width.
  int rowCount() const { return static_cast<int>(rows_.size()); }
  // Lays the bars out again for `width` (done at each resize).
  void arrange(int width);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  QList<QToolBar*> bars_;
  QList<QList<QToolBar*>> rows_;
  QVBoxLayout* layout_ = nullptr;
};

}  // namespace mrnn::widgets
