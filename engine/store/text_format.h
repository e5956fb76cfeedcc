#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>

namespace mrnn::engine {

// Small text encoders for the run exports (no JSON or CSV library in the engine).

// A CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote, a
// carriage return or a newline; as is otherwise.
std::string csvField(const std::string& text);

// A JSON string literal with its quotes: '"', '\\' and control characters escaped; bytes that
// are not valid UTF-8 become U+FFFD, so the output is always valid JSON.
std::string jsonString(const std::string& text);

// Text a user or a file supplied (a run's name, a note, a file name), safe to print on a
// terminal: control characters (C0, DEL, C1: escape sequences that would retitle or recolour
// the terminal) and bytes that are not UTF-8 become \xNN; a backslash stays as it is.
// `keepLineBreaks` leaves '\n' alone, for text printed line by line.
std::string terminalText(const std::string& text, bool keepLineBreaks = false);

// The shortest decimal text that reads back as exactly `value` (locale-independent);
// "nan", "inf" or "-inf" when not finite.
std::string formatDouble(double value);

// A JSON number: formatDouble, or null when not finite (JSON has no NaN or infinity).
std::string jsonNumber(double value);
std::string jsonNumber(const std::optional<double>& value);

// A figure for a fixed-width table column: `decimals` decimals below 1e9 in magnitude
// ("3.2046"), in exponent form from there ("1.617e+17"), "inf" or "nan" when not finite, so
// an astronomically large perplexity never runs into its neighbour (locale-independent).
std::string tableFigure(double value, int decimals);

// An integer with its thousands separated by commas, for tables: "-1,234,567".
std::string groupedInteger(int64_t value);

// A duration for progress lines and ETAs: "7m39s", "1h02m05s" (rounded to the second).
std::string compactDuration(double seconds);

// Now as ISO 8601 in UTC, "2026-11-23T10:02:11Z": how runs, checkpoints and locks date things.
std::string utcTimestamp();
// The same for another time (a file's modification time).
std::string utcTimestampOf(std::time_t when);

// A CSV number: formatDouble, or an empty field for an absent value.
std::string csvNumber(const std::optional<double>& value);

}  // namespace mrnn::engine
