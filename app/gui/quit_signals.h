#pragma once

#include <QObject>
#include <QString>

class QSocketNotifier;

namespace mrnn::app {

// SIGTERM (a logout, systemd, `kill`), SIGINT (Ctrl-C in the terminal that started the
// window) and SIGHUP (that terminal closed) reach the window's thread as `requested`, through a
// pipe the handler writes one byte to (the only thing a handler may safely do), so that the
// window stops a training run with its checkpoint before it quits rather than dying with the
// run's last steps. One instance in a process; the default handlers come back when it ends.
class QuitSignals : public QObject {
  Q_OBJECT

 public:
  explicit QuitSignals(QObject* parent = nullptr);
  ~QuitSignals() override;
  QuitSignals(const QuitSignals&) = delete;
  QuitSignals& operator=(const QuitSignals&) = delete;

 signals:
  // `name`: "SIGTERM", "SIGINT" or "SIGHUP".
  void requested(const QString& name);

 private:
  void readSignal();

  QSocketNotifier* notifier_ = nullptr;
};

}  // namespace mrnn::app
