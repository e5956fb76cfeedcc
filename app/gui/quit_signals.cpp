#include "app/gui/quit_signals.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QSocketNotifier>
#include <array>

namespace mrnn::app {
namespace {

constexpr std::array<int, 3> kSignals{SIGTERM, SIGINT, SIGHUP};
int pipeEnds[2] = {-1, -1};  // [0] read by the window's thread, [1] written by the handler

void onSignal(int number) {
  const auto byte = static_cast<unsigned char>(number);
  const ssize_t written = ::write(pipeEnds[1], &byte, 1);
  static_cast<void>(written);  // a full pipe already carries a request
}

QString nameOf(int number) {
  switch (number) {
    case SIGTERM:
      return QStringLiteral("SIGTERM");
    case SIGINT:
      return QStringLiteral("SIGINT");
    default:
      return QStringLiteral("SIGHUP");
  }
}

}  // namespace

QuitSignals::QuitSignals(QObject* parent) : QObject(parent) {
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pipeEnds) != 0) return;
  ::fcntl(pipeEnds[1], F_SETFL, O_NONBLOCK);
  notifier_ = new QSocketNotifier(pipeEnds[0], QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, &QuitSignals::readSignal);
  struct sigaction action {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int number : kSignals) ::sigaction(number, &action, nullptr);
}

QuitSignals::~QuitSignals() {
  if (notifier_ == nullptr) return;
  for (const int number : kSignals) ::signal(number, SIG_DFL);
  ::close(pipeEnds[0]);
  ::close(pipeEnds[1]);
  pipeEnds[0] = pipeEnds[1] = -1;
}

void QuitSignals::readSignal() {
  unsigned char byte = 0;
  if (::read(pipeEnds[0], &byte, 1) != 1) return;
  emit requested(nameOf(byte));
}

}  // namespace mrnn::app
