#include "widgets/training/run_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QStyle>
#include <QToolButton>

namespace mrnn::widgets {

RunBanner::RunBanner(QWidget* parent) : QFrame(parent) {
  setObjectName(QStringLiteral("runBanner"));
  setFrameShape(QFrame::StyledPanel);
  icon_ = new QLabel(this);
  label_ = new QLabel(this);
  label_->setObjectName(QStringLiteral("runBannerText"));
  label_->setWordWrap(true);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  label_->setTextFormat(Qt::RichText);
  connect(label_, &QLabel::linkActivated, this, [this](const QString& link) {
    if (link == QStringLiteral("action")) {
      triggerAction();
    } else {
      showDetails();
    }
  });
  close_ = new QToolButton(this);
  close_->setObjectName(QStringLiteral("runBannerClose"));
  close_->setAutoRaise(true);
  close_->setText(QStringLiteral("\u2715"));
  close_->setToolTip(tr("Dismiss this notice"));
  connect(close_, &QToolButton::clicked, this, &QWidget::hide);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 4, 4, 4);
  layout->addWidget(icon_, 0, Qt::AlignTop);
  layout->addWidget(label_, 1);
  layout->addWidget(close_, 0, Qt::AlignTop);
  hide();
}

void RunBanner::showMessage(Kind kind, const QString& title, const QString& detail) {
  kind_ = kind;
  title_ = title;
  detail_ = detail;
  actionText_.clear();
  action_ = nullptr;
  QString background;
  QString border;
  QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
  switch (kind) {
    case Kind::Success:
      background = QStringLiteral("#e8f5e9");
      border = QStringLiteral("#81c784");
      break;
    case Kind::Information:
      background = QStringLiteral("#eef3f8");
      border = QStringLiteral("#9fb7d0");
      break;
    case Kind::Failure:
      background = QStringLiteral("#fdecea");
      border = QStringLiteral("#e57373");
      pixmap = QStyle::SP_MessageBoxCritical;
      break;
  }
  setStyleSheet(QStringLiteral("#runBanner { background: %1; border: 1px solid %2; "
                               "border-radius: 3px; } QLabel { color: #202020; }")
                    .arg(background, border));
  icon_->setPixmap(style()->standardIcon(pixmap).pixmap(18, 18));
  render();
  show();
}

void RunBanner::render() {
  QString html = QStringLiteral("<b>%1</b>").arg(title_.toHtmlEscaped());
  const bool failure = kind_ == Kind::Failure;
  const QString& detail = detail_;
  // A failure's reason: its first line in words, the rest behind "Details".
  const QString trimmed = detail.trimmed();
  const qsizetype lineEnd = trimmed.indexOf(QLatin1Char('\n'));
  hasDetails_ = failure && lineEnd >= 0;
  const QString shown = hasDetails_ ? trimmed.left(lineEnd) : detail;
  if (!shown.isEmpty()) {
    // A failure's reason gets a line of its own; other notices stay one line, so a finished
    // run's banner does not push the charts down.
    html += (failure ? QStringLiteral("<br>") : QStringLiteral(" · ")) +
            shown.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral(" · "));
  }
  if (hasDetails_) html += QStringLiteral(" <a href=\"details\">%1</a>").arg(tr("Details…"));
  if (action_) {
    html += QStringLiteral(" <a href=\"action\">%1</a>").arg(actionText_.toHtmlEscaped());
  }
  label_->setText(html);
}

void RunBanner::setAction(const QString& text, std::function<void()> action) {
  actionText_ = text;
  action_ = std::move(action);
  render();
}

void RunBanner::triggerAction() {
  if (action_) action_();
}

QString RunBanner::shownText() const {
  return label_->text();
}

void RunBanner::showDetails() {
  if (!hasDetails_) return;
  auto* box = new QMessageBox(QMessageBox::Critical, title_, title_, QMessageBox::Close, this);
  box->setObjectName(QStringLiteral("runBannerDetails"));
  box->setInformativeText(detail_.trimmed());
  box->setTextInteractionFlags(Qt::TextSelectableByMouse);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

QString RunBanner::text() const {
  return detail_.isEmpty() ? title_ : title_ + QLatin1Char('\n') + detail_;
}

}  // namespace mrnn::widgets
