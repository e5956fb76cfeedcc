#include "widgets/training/rank_throughput_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

#include "widgets/display_format.h"
#include "widgets/training/rank_graphs.h"

namespace mrnn::widgets {

RankThroughputView::RankThroughputView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("rankThroughput"));
  label_ = new QLabel(this);
  label_->setObjectName(QStringLiteral("rankThroughputText"));
  label_->setTextFormat(Qt::RichText);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label_->setWordWrap(true);
  label_->setToolTip(
      tr("Each rank's symbols per second on its own share of the batch, its wait for the "
         "others left out, smoothed over the last steps. Every step waits for the slowest "
         "rank: one well behind the others (orange) slows the whole run."));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label_, 1);
  hide();
}

void RankThroughputView::clear() {
  smoothers_.clear();
  rates_.clear();
  label_->clear();
  hide();
}

void RankThroughputView::addStep(const std::vector<double>& rates) {
  if (rates.empty()) return;
  if (smoothers_.size() != rates.size()) {
    smoothers_.assign(rates.size(), EmaSmoother(kSmoothing));
    rates_.assign(rates.size(), 0.0);
  }
  for (size_t r = 0; r < rates.size(); ++r) rates_[r] = smoothers_[r].add(rates[r]);
  redraw();
  show();
}

int RankThroughputView::slowestRank() const {
  if (rates_.empty()) return -1;
  return static_cast<int>(std::min_element(rates_.begin(), rates_.end()) - rates_.begin());
}

bool RankThroughputView::slowestFlagged() const {
  if (rates_.size() < 2) return false;
  const double fastest = *std::max_element(rates_.begin(), rates_.end());
  return fastest > 0 && rates_[static_cast<size_t>(slowestRank())] <= (1.0 - kSlowShare) * fastest;
}

void RankThroughputView::redraw() {
  const int slowest = slowestRank();
  const double fastest = *std::max_element(rates_.begin(), rates_.end());
  QString html = QStringLiteral("<span style='color:#707070'>%1</span>").arg(tr("Ranks"));
  for (size_t r = 0; r < rates_.size(); ++r) {
    const auto rank = static_cast<int>(r);
    QString entry = tr("rank %1 %2 sym/s")
                        .arg(rank)
                        .arg(formatCount(static_cast<qint64>(std::llround(rates_[r]))));
    if (rank == slowest && rates_.size() > 1 && fastest > 0) {
      const double behind = 100.0 * (1.0 - rates_[r] / fastest);
      entry += tr(" (slowest, %1% behind)").arg(QString::number(behind, 'f', 0));
    }
    entry = entry.toHtmlEscaped();
    if (rank == slowest && slowestFlagged()) {
      entry = QStringLiteral("<b style='color:#c05000'>%1</b>").arg(entry);
    }
    html += QStringLiteral("&nbsp;&nbsp; <span style='color:%1'>%2</span> %3")
                .arg(RankGraphs::rankColor(rank).name(), RankGraphs::rankMarker(rank), entry);
  }
  label_->setText(html);
}

QString RankThroughputView::text() const {
  QTextDocument document;
  document.setHtml(label_->text());
  return document.toPlainText();
}

}  // namespace mrnn::widgets
