#include "widgets/panel_shortcut.h"

#include <QShortcut>
#include <QWidget>

namespace mrnn::widgets {

QShortcut* addPanelShortcut(QWidget* panel, const QKeySequence& key, const QString& name,
                            const QString& what) {
  auto* shortcut = new QShortcut(key, panel);
  shortcut->setObjectName(name);
  shortcut->setContext(Qt::WidgetWithChildrenShortcut);
  shortcut->setWhatsThis(what);
  return shortcut;
}

}  // namespace mrnn::widgets
