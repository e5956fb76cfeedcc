#pragma once

#include <QStringList>
#include <QTableWidget>

namespace mrnn::engine {
struct RecoveryTable;
}

namespace mrnn::widgets {

// The numbers beside the recovery plot: one row per model with its mean loss in bits per
// symbol over the whole text, on the surprising symbols and at +1..+K after them, and a last
// row with the number of positions each column averages.
class RecoveryTable : public QTableWidget {
  Q_OBJECT

 public:
  explicit RecoveryTable(QWidget* parent = nullptr);

  // Each model's row label in its curve's colour (`colours`, as the plot's).
  void showRecovery(const engine::RecoveryTable& table, const QStringList& labels,
                    const QVector<QColor>& colours = {});
  void clearRecovery();
};

}  // namespace mrnn::widgets
