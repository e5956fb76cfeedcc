#include "widgets/sampler/sampler_model_info.h"

#include <QLocale>
#include <QStringList>

namespace mrnn::widgets {

QString SamplerModelInfo::summary() const {
  if (!isValid()) return QStringLiteral("no model loaded");
  QStringList parts;
  parts << QStringLiteral("%1 level").arg(level)
        << QStringLiteral("%1 symbols").arg(QLocale().toString(vocabularySize));
  // Equal consecutive layers are written once with a count: "mlstm 128 × 2".
  for (int i = 0; i < layers.size();) {
    int same = 1;
    while (i + same < layers.size() && layers[i + same].type == layers[i].type &&
           layers[i + same].hiddenSize == layers[i].hiddenSize) {
      ++same;
    }
    QString text = QStringLiteral("%1 %2").arg(layers[i].type).arg(layers[i].hiddenSize);
    if (same > 1) text += QStringLiteral(" × %1").arg(same);
    parts << text;
    i += same;
  }
  if (parameters > 0) {
    parts << QStringLiteral("%1 parameters").arg(QLocale().toString(parameters));
  }
  return parts.join(QStringLiteral(" · "));
}

}  // namespace mrnn::widgets
