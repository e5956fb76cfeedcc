#include "app/gui/screenshot_showcase.h"

#include <algorithm>
#include <exception>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include "app/gui/main_window.h"
#include "engine/store/run_store.h"
#include "widgets/data/data_panel.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"
#include "widgets/sampler/sampler_console.h"
#include "widgets/sampler/sampling_controller.h"
#include "widgets/sampler/sampling_options_form.h"
#include "widgets/training/training_monitor_panel.h"

namespace mrnn::app {
namespace {

// Turns the event loop until `done` or the deadline.
template <typename Done>
void waitFor(Done done, int milliseconds) {
  QDeadlineTimer deadline(milliseconds);
  while (!done() && !deadline.hasExpired()) {
    QEventLoop loop;
    QTimer::singleShot(50, &loop, &QEventLoop::quit);
    loop.exec();
  }
}

}  // namespace

void prepareShowcase(MainWindow& window) {
  waitFor([&window] { return !window.dataPanel()->isScanning(); }, 30'000);
  const QString folder = window.document().folder();
  const QString database = QDir(folder).filePath(QStringLiteral("runs.sqlite"));
  if (folder.isEmpty() || !QFileInfo::exists(database)) return;
  QList<qint64> newest;
  try {
    engine::RunStore store(widgets::toNativePath(database));
    const auto runs = store.listRuns();
    for (auto run = runs.rbegin(); run != runs.rend() && newest.size() < 2; ++run) {
      newest.prepend(run->id);
    }
  } catch (const std::exception&) {
    return;  // an unreadable database shows as such in the runs panel
  }
  window.trainingMonitor()->setOverlayRuns(newest);

  widgets::SamplerConsole* sampler = window.samplerConsole();
  waitFor([sampler] { return !sampler->controller()->isBusy(); }, 60'000);
  sampler->optionsForm()->setPrime(QStringLiteral("The "));
  sampler->optionsForm()->setCompletions(3);
  sampler->optionsForm()->setLength(240);
  sampler->optionsForm()->setTemperature(0.8);
  bool ended = false;
  QObject::connect(sampler, &widgets::SamplerConsole::generationEnded, [&ended] { ended = true; });
  sampler->generate();
  waitFor([&ended] { return ended; }, 60'000);
}

}  // namespace mrnn::app
