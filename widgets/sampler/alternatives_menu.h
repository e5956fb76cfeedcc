#pragma once

#include <QMenu>

#include "engine/sampling/completion.h"

namespace mrnn::widgets {

// The popup list of what the model offered at one generated position: every alternative
// with its probability (most probable first, the generated one in bold). Choosing one emits
// alternativeChosen(), which the console turns into a branch from that position.
class AlternativesMenu : public QMenu {
  Q_OBJECT

 public:
  // `canBranch` false (generation running) shows the list with its entries disabled.
  AlternativesMenu(const engine::GeneratedSymbol& symbol, int position, bool canBranch,
                   QWidget* parent = nullptr);

  int position() const { return position_; }
  // The entries, in order: the alternatives (and the chosen symbol when it was not among
  // them); each action's data() is the symbol id.
  QList<QAction*> alternativeActions() const { return alternatives_; }

 Q_SIGNALS:
  void alternativeChosen(int position, qint64 symbolId);

 private:
  int position_;
  QList<QAction*> alternatives_;
};

}  // namespace mrnn::widgets
