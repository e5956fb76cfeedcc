#pragma once

namespace mrnn::app {

class MainWindow;

// Fills the panels from the open project's existing runs so that documentation screenshots
// show real content: the newest runs' curves in the training monitor, three completions in
// the sampler, a finished corpus scan. Waits (turning the event loop) at most ~2 minutes.
void prepareShowcase(MainWindow& window);

}  // namespace mrnn::app
