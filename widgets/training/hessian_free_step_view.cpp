#include "widgets/training/hessian_free_step_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <cmath>

#include "engine/store/metric_names.h"

namespace mrnn::widgets {

HessianFreeStepView::HessianFreeStepView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("hessianFreeStep"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 2, 0, 0);
  layout->setSpacing(10);
  caption_ = new QLabel(tr("Hessian-free"), this);
  caption_->setStyleSheet(QStringLiteral("color: #606060; font-size: 8pt;"));
  figures_ = new QLabel(this);
  figures_->setObjectName(QStringLiteral("hessianFreeFigures"));
  figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  figures_->setToolTip(
      tr("The last step's conjugate-gradient iterations and the iterate backtracking kept, the "
         "damping λ after the step, the reduction ratio ρ (how much of the promised decrease "
         "the loss delivered: below ¼ λ grows, above ¾ it shrinks) and the line search's "
         "step size (0: the step was rejected)"));
  layout->addWidget(caption_);
  layout->addWidget(figures_, 1);
  clear();
}

void HessianFreeStepView::clear() {
  figures_->clear();
  hide();
}

void HessianFreeStepView::addStep(const engine::StepEvent& step) {
  if (step.update.empty()) return;
  const auto value = [&step](const char* name) {
    for (const auto& figure : step.update) {
      if (figure.name == name) return figure.value;
    }
    return std::nan("");
  };
  namespace m = engine::metric;
  const double rho = value(m::kRho);
  const double rate = value(m::kStepSize);
  const QString rhoText = std::isinf(rho) ? QStringLiteral("−∞") : QString::number(rho, 'g', 3);
  const bool poor = !(rho >= 0.25) || rate == 0.0;
  figures_->setText(
      tr("step %1: CG %2 iterations, kept %3 · λ %4 · ρ %5 · step size %6")
          .arg(step.step)
          .arg(value(m::kCgIterations))
          .arg(value(m::kBacktrackedIterate))
          .arg(QString::number(value(m::kLambda), 'g', 3), rhoText, QString::number(rate, 'g', 3)));
  figures_->setStyleSheet(poor ? QStringLiteral("color: #c05800; font-weight: bold;") : QString());
  show();
}

QString HessianFreeStepView::text() const {
  return isHidden() ? QString() : caption_->text() + QStringLiteral("  ") + figures_->text();
}

}  // namespace mrnn::widgets
