#include "widgets/data/symbol_label.h"

#include <QList>

namespace mrnn::widgets {
namespace {

constexpr int kMaxWordLabel = 12;  // characters; longer words are cut with an ellipsis

QString hexByte(unsigned char byte) {
  return QStringLiteral("0x") +
         QString::number(byte, 16).toUpper().rightJustified(2, QLatin1Char('0'));
}

// Names of the whitespace and control characters a corpus commonly holds.
QString controlName(unsigned char byte) {
  switch (byte) {
    case ' ':
      return QStringLiteral("space");
    case '\n':
      return QStringLiteral("newline");
    case '\t':
      return QStringLiteral("tab");
    case '\r':
      return QStringLiteral("carriage return");
    default:
      return QStringLiteral("control byte");
  }
}

QString visibleControl(unsigned char byte) {
  switch (byte) {
    case ' ':
      return QStringLiteral("\u2423");  // ␣
    case '\n':
      return QStringLiteral("\u21B5");  // ↵
    case '\t':
      return QStringLiteral("\u21E5");  // ⇥
    case '\r':
      return QStringLiteral("\u240D");  // ␍
    default:
      return hexByte(byte);
  }
}

bool isControl(unsigned char byte) {
  return byte <= 0x20 || byte == 0x7F;
}

QString codePoint(const QString& text) {
  const QList<uint> points = text.toUcs4();
  if (points.size() != 1) return QString();
  return QStringLiteral("U+") +
         QString::number(points.front(), 16).toUpper().rightJustified(4, QLatin1Char('0'));
}

}  // namespace

QString symbolLabel(const std::string& symbol, engine::InputLevel level) {
  if (symbol.size() == 1) {
    const auto byte = static_cast<unsigned char>(symbol[0]);
    if (isControl(byte)) return visibleControl(byte);
    if (byte >= 0x80) return hexByte(byte);  // a lone byte of a multi-byte character
    return QString(QLatin1Char(static_cast<char>(byte)));
  }
  const QString text = QString::fromUtf8(symbol.data(), static_cast<qsizetype>(symbol.size()));
  if (level != engine::InputLevel::Word) {
    // A character that is itself invisible (no-break space, zero-width joiner) gets its code.
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || !text.at(0).isPrint()) return codePoint(text);
    return text;
  }
  if (text.size() > kMaxWordLabel) return text.left(kMaxWordLabel - 1) + QStringLiteral("\u2026");
  return text;
}

QString symbolDescription(const std::string& symbol, engine::InputLevel level) {
  if (symbol.size() == 1) {
    const auto byte = static_cast<unsigned char>(symbol[0]);
    if (isControl(byte)) return QStringLiteral("%1 (%2)").arg(controlName(byte), hexByte(byte));
    if (byte >= 0x80) return QStringLiteral("byte %1").arg(hexByte(byte));
    if (level == engine::InputLevel::Word)
      return QStringLiteral("word '%1'").arg(QLatin1Char(static_cast<char>(byte)));
    return QStringLiteral("'%1' (%2)").arg(QLatin1Char(static_cast<char>(byte))).arg(hexByte(byte));
  }
  const QString text = QString::fromUtf8(symbol.data(), static_cast<qsizetype>(symbol.size()));
  if (level == engine::InputLevel::Word) return QStringLiteral("word '%1'").arg(text);
  return QStringLiteral("'%1' (%2)").arg(text, codePoint(text));
}

}  // namespace mrnn::widgets
