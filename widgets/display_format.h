#pragma once

#include <QString>

namespace mrnn::widgets {

// Numbers as the views show them, in a fixed English locale so that tables, tests
// and screenshots read the same on every desktop.

// "98,816"
QString formatCount(qint64 value);
// "1:02:03" (hours:minutes:seconds), as `mrnn runs list` prints durations; "-" when unknown.
QString formatDuration(double seconds);
// "2h 05m", "3m 07s", "42s": a remaining time at a glance; "-" when unknown.
QString formatEta(double seconds);
// Loss figures with four decimals ("1.2345"); "-" for an absent value.
QString formatLoss(double value);
// Compact general numbers for rates and norms ("0.002", "1.5e-05", "12,345").
QString formatValue(double value);

// The engine reports losses in nats; every view shows bits (one unit, named, everywhere).
constexpr double natsToBits(double nats) {
  return nats / 0.69314718055994530942;
}

}  // namespace mrnn::widgets
