#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace mrnn::widgets {

// One masking curve as the views show it: engine::MaskingCurve (losses in nats) with the
// model it belongs to, kept torch-free so that widget headers need no LibTorch.
struct MaskingSeries {
  int model = 0;                // 0: model A, 1: model B (the comparison)
  std::optional<size_t> layer;  // 0-based; none: every layer masked at once
  std::vector<double> p;
  std::vector<double> meanNats;        // log of the perplexity averaged over the runs
  std::vector<double> stdNats;         // population standard deviation of the runs' losses
  std::vector<double> meanPerplexity;  // averaged over the runs, as Shuang Fig. 5 reports
  std::vector<double> stdPerplexity;
  int64_t runs = 0;  // masks drawn per P (P = 0 is evaluated once)

  // "A" or "B".
  QString modelTag() const { return model == 0 ? QStringLiteral("A") : QStringLiteral("B"); }
  // "layer 2" or "all layers".
  QString layerName() const {
    return layer ? QStringLiteral("layer %1").arg(*layer + 1) : QStringLiteral("all layers");
  }
  // The legend entry: "A · layer 1".
  QString name() const { return modelTag() + QStringLiteral(" · ") + layerName(); }
};

}  // namespace mrnn::widgets
