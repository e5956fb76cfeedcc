// The exports' exact text for a small fixture, and the encoders beneath them.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "engine/store/run_eta.h"
#include "engine/store/run_store.h"
#include "engine/store/text_format.h"
#include "store_fixtures.h"
#include "test_harness.h"

using mrnn::engine::csvField;
using mrnn::engine::formatDouble;
using mrnn::engine::groupedInteger;
using mrnn::engine::jsonNumber;
using mrnn::engine::jsonString;
using mrnn::engine::runEtaSeconds;
using mrnn::engine::RunStore;
using mrnn::engine::tableFigure;
using mrnn::test::ScratchFolder;

MRNN_TEST(store_csv_fields_are_quoted_when_needed) {
  EXPECT_EQ(csvField("plain text"), "plain text");
  EXPECT_EQ(csvField(""), "");
  EXPECT_EQ(csvField("a,b"), "\"a,b\"");
  EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
}

MRNN_TEST(store_json_strings_are_escaped) {
  EXPECT_EQ(jsonString("plain"), "\"plain\"");
  EXPECT_EQ(jsonString("q\"b\\s/"), "\"q\\\"b\\\\s/\"");
  EXPECT_EQ(jsonString("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
  EXPECT_EQ(jsonString(std::string("\x01\x1f", 2) + std::string(1, '\0')),
            "\"\\u0001\\u001f\\u0000\"");
  // Valid UTF-8 passes through; invalid bytes become U+FFFD (the output stays valid JSON).
  EXPECT_EQ(jsonString("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  EXPECT_EQ(jsonString("a\xff"
                       "b"),
            "\"a\\ufffdb\"");
  EXPECT_EQ(jsonString("\xc3"), "\"\\ufffd\"");                        // truncated sequence
  EXPECT_EQ(jsonString("\xc0\xaf"), "\"\\ufffd\\ufffd\"");             // overlong '/'
  EXPECT_EQ(jsonString("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // surrogate
}

MRNN_TEST(store_numbers_round_trip_in_shortest_form) {
  EXPECT_EQ(formatDouble(0.1), "0.1");
  EXPECT_EQ(formatDouble(1.25), "1.25");
  EXPECT_EQ(formatDouble(3.0), "3");
  EXPECT_EQ(formatDouble(-2.5e-7), "-2.5e-07");
  EXPECT_EQ(formatDouble(std::nan("")), "nan");
  EXPECT_EQ(formatDouble(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(jsonNumber(std::nan("")), "null");
  EXPECT_EQ(jsonNumber(std::optional<double>()), "null");
  for (const double value :
       {1.0 / 3.0, 2.0 / 3.0, 1e-300, 6.02214076e23, 0.30000000000000004,
        std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max()}) {
    const std::string text = formatDouble(value);
    EXPECT_MSG(std::strtod(text.c_str(), nullptr) == value, text);
  }
}

// An untrained model on long words has a word perplexity of 10^100 and more: in fixed
// notation that is a hundred digits, which ran into the next column of `mrnn eval`.
MRNN_TEST(table_figures_stay_narrow) {
  EXPECT_EQ(tableFigure(3.20456, 4), "3.2046");
  EXPECT_EQ(tableFigure(8920.5213, 2), "8920.52");
  EXPECT_EQ(tableFigure(999999999.0, 2), "999999999.00");
  EXPECT_EQ(tableFigure(1.6171e17, 2), "1.617e+17");
  EXPECT_EQ(tableFigure(-2.5e12, 4), "-2.500e+12");
  EXPECT_EQ(tableFigure(std::numeric_limits<double>::max(), 2), "1.798e+308");
  EXPECT_EQ(tableFigure(std::numeric_limits<double>::infinity(), 2), "inf");
  EXPECT_EQ(tableFigure(std::nan(""), 4), "nan");
}

MRNN_TEST(store_exports_runs_as_csv) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  EXPECT_EQ(store.exportRunsCsv(),
            "id,name,model_type,parameters,status,started_at,ended_at,duration_s,steps,"
            "best_valid,test_result,reason,note\n");
  mrnn::test::addFixtureRuns(store);
  EXPECT_EQ(store.exportRunsCsv(),
            "id,name,model_type,parameters,status,started_at,ended_at,duration_s,steps,"
            "best_valid,test_result,reason,note\n"
            "1,\"char, \"\"small\"\"\",mlstm x2,1234567,finished,2024-05-01T10:00:00Z,"
            "2024-05-01T11:02:03Z,3723.5,10000,1.25,1.3,,\n"
            "2,word-lm,lstm,42,failed,2024-05-02T09:00:00Z,2024-05-02T09:00:01Z,0.1,7,,,"
            "\"loss became NaN\nat step 7, \"\"diverged\"\"\",\n");
}

MRNN_TEST(store_exports_runs_as_json) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  EXPECT_EQ(store.exportRunsJson(), "[]\n");
  mrnn::test::addFixtureRuns(store);
  EXPECT_EQ(store.exportRunsJson(),
            "[\n"
            "  {\"id\": 1, \"name\": \"char, \\\"small\\\"\", \"model_type\": \"mlstm x2\", "
            "\"parameters\": 1234567, \"status\": \"finished\", "
            "\"started_at\": \"2024-05-01T10:00:00Z\", \"ended_at\": \"2024-05-01T11:02:03Z\", "
            "\"duration_s\": 3723.5, \"steps\": 10000, \"best_valid\": 1.25, "
            "\"test_result\": 1.3, \"reason\": \"\", \"note\": \"\", "
            "\"config_yaml\": \"model:\\n  type: mlstm\\n\"},\n"
            "  {\"id\": 2, \"name\": \"word-lm\", \"model_type\": \"lstm\", \"parameters\": 42, "
            "\"status\": \"failed\", \"started_at\": \"2024-05-02T09:00:00Z\", "
            "\"ended_at\": \"2024-05-02T09:00:01Z\", \"duration_s\": 0.1, \"steps\": 7, "
            "\"best_valid\": null, \"test_result\": null, "
            "\"reason\": \"loss became NaN\\nat step 7, \\\"diverged\\\"\", \"note\": \"\", "
            "\"config_yaml\": \"\"}\n"
            "]\n");
}

MRNN_TEST(store_exports_metrics_as_csv) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  mrnn::test::addFixtureRuns(store);
  EXPECT_EQ(store.exportMetricsCsv(1),
            "name,step,epoch,wall_s,value\n"
            "\"odd,\"\"name\"\"\",2,1,4,-2.5e-07\n"
            "train/loss,1,0.5,2,1.5\n"
            "train/loss,2,1,4,0.1\n"
            "valid/bpc,2,1,4.5,nan\n");
  EXPECT_EQ(store.exportMetricsCsv(2), "name,step,epoch,wall_s,value\n");
}

MRNN_TEST(store_exports_metrics_as_json) {
  ScratchFolder folder;
  RunStore store(folder.file("runs.sqlite"));
  mrnn::test::addFixtureRuns(store);
  EXPECT_EQ(store.exportMetricsJson(1),
            "[\n"
            "  {\"name\": \"odd,\\\"name\\\"\", \"step\": 2, \"epoch\": 1, \"wall_s\": 4, "
            "\"value\": -2.5e-07},\n"
            "  {\"name\": \"train/loss\", \"step\": 1, \"epoch\": 0.5, \"wall_s\": 2, "
            "\"value\": 1.5},\n"
            "  {\"name\": \"train/loss\", \"step\": 2, \"epoch\": 1, \"wall_s\": 4, "
            "\"value\": 0.1},\n"
            "  {\"name\": \"valid/bpc\", \"step\": 2, \"epoch\": 1, \"wall_s\": 4.5, "
            "\"value\": null}\n"
            "]\n");
  EXPECT_EQ(store.exportMetricsJson(2), "[]\n");
}

MRNN_TEST(grouped_integers_for_tables) {
  EXPECT_EQ(groupedInteger(0), std::string("0"));
  EXPECT_EQ(groupedInteger(999), std::string("999"));
  EXPECT_EQ(groupedInteger(1000), std::string("1,000"));
  EXPECT_EQ(groupedInteger(441440), std::string("441,440"));
  EXPECT_EQ(groupedInteger(-1234567), std::string("-1,234,567"));
  EXPECT_EQ(groupedInteger(-123456), std::string("-123,456"));
}

// The ETA of every progress line: the time per step so far times the steps to go, capped by
// a time budget's remainder, never negative.
MRNN_TEST(run_eta_is_time_per_step_times_steps_to_go) {
  EXPECT_NEAR(runEtaSeconds(10, 100, 20.0), 180.0, 1e-12);  // 2 s a step, 90 to go
  EXPECT_NEAR(runEtaSeconds(3, 4.5, 6.0), 3.0, 1e-12);      // a length in epochs: 1.5 steps
  EXPECT_EQ(runEtaSeconds(100, 100, 50.0), 0.0);            // done
  EXPECT_EQ(runEtaSeconds(120, 100, 60.0), 0.0);            // past the end: none, not negative
  EXPECT_NEAR(runEtaSeconds(0, 10, 4.0), 40.0, 1e-12);      // no step yet: counted as one
  // A budget caps it at what the budget leaves, and at nothing once spent; 0 is no budget.
  EXPECT_NEAR(runEtaSeconds(10, 100, 20.0, 60.0), 40.0, 1e-12);
  EXPECT_NEAR(runEtaSeconds(10, 100, 20.0, 1000.0), 180.0, 1e-12);
  EXPECT_EQ(runEtaSeconds(10, 100, 20.0, 15.0), 0.0);
  EXPECT_NEAR(runEtaSeconds(10, 100, 20.0, 0.0), 180.0, 1e-12);
}
