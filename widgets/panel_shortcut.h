#pragma once

#include <QKeySequence>
#include <QString>

class QShortcut;
class QWidget;

namespace mrnn::widgets {

// A key that works while `panel` or one of its children has the focus, never window-wide, so
// that the window's own keys (F5: Start) have one holder. `name` is its objectName; `what`
// says what it does in Help > Keyboard Shortcuts ("Data: read the corpus again").
QShortcut* addPanelShortcut(QWidget* panel, const QKeySequence& key, const QString& name,
                            const QString& what);

}  // namespace mrnn::widgets
