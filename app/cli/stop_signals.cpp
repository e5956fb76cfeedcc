#include "stop_signals.h"

namespace mrnn::app {
namespace {

// The outermost StopSignals' token; loading a pointer and setting a flag are signal-safe.
std::atomic<engine::StopToken*> current{nullptr};
std::atomic<int> stopSignal{0};
// A command may hold one while it plans and its training holds another: the inner one keeps a
// request that came before it.
std::atomic<int> depth{0};

extern "C" void onStopSignal(int signal) {
  stopSignal = signal;
  if (engine::StopToken* token = current.load()) token->requestStop();
}

}  // namespace

StopSignals::StopSignals() {
  if (depth++ == 0) {
    own_ = std::make_unique<engine::StopToken>();
    stopSignal = 0;
    current = own_.get();
  }
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &action, &previous_[i]);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &previousPipe_);
}

StopSignals::~StopSignals() {
  for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
  sigaction(SIGPIPE, &previousPipe_, nullptr);
  if (--depth == 0) current = nullptr;
}

void StopSignals::restoreIgnoredInterrupt() {
  struct sigaction current {};
  if (sigaction(SIGINT, nullptr, &current) != 0 || current.sa_handler != SIG_IGN) return;
  struct sigaction standard {};
  standard.sa_handler = SIG_DFL;
  sigemptyset(&standard.sa_mask);
  sigaction(SIGINT, &standard, nullptr);
}

bool StopSignals::requested() const {
  return token().stopRequested();
}

const engine::StopToken& StopSignals::token() const {
  return *current.load();
}

const char* StopSignals::name() const {
  switch (stopSignal.load()) {
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "Ctrl-C";
  }
}

}  // namespace mrnn::app
