// The kill matrix cost record: what is written reads back, and bad records fail naming the file.
#include "dlfl/formats/kill_matrix_cost.h"

#include <gtest/gtest.h>

#include "../support/test_files.h"
#include "dlfl/error.h"

namespace dlfl::io {
namespace {

using dlfl::testing::TempDir;
using dlfl::testing::write_text;

TEST(KillMatrixCost, WhatIsWrittenReadsBack) {
  TempDir dir("cost");
  const KillMatrixCost cost{.generated = 30, .compiled = 27, .killed = 19, .runs = 412, .reused = 8,
                            .generate_seconds = 1.25, .build_seconds = 40.5, .run_seconds = 130.0,
                            .plain_build_seconds = std::nullopt};
  write_kill_matrix_cost(cost, dir / kKillMatrixCostFileName);
  const KillMatrixCost back = read_kill_matrix_cost(dir / kKillMatrixCostFileName);
  EXPECT_EQ(back.generated, 30u);
  EXPECT_EQ(back.compiled, 27u);
  EXPECT_EQ(back.killed, 19u);
  EXPECT_EQ(back.runs, 412u);
  EXPECT_EQ(back.reused, 8u);
  EXPECT_DOUBLE_EQ(back.generate_seconds, 1.25);
  EXPECT_DOUBLE_EQ(back.build_seconds, 40.5);
  EXPECT_DOUBLE_EQ(back.run_seconds, 130.0);
  EXPECT_FALSE(back.plain_build_seconds);  // not measured: absent, not 0
}

TEST(KillMatrixCost, APlainBuildTimeReadsBackWhenMeasured) {
  TempDir dir("cost");
  const KillMatrixCost cost{.generated = 3, .compiled = 3, .killed = 0, .runs = 0, .reused = 0, .generate_seconds = 0,
                            .build_seconds = 12.5, .run_seconds = 0, .plain_build_seconds = 10.0};
  write_kill_matrix_cost(cost, dir / kKillMatrixCostFileName);
  const KillMatrixCost back = read_kill_matrix_cost(dir / kKillMatrixCostFileName);
  ASSERT_TRUE(back.plain_build_seconds);
  EXPECT_DOUBLE_EQ(*back.plain_build_seconds, 10.0);
  EXPECT_DOUBLE_EQ(back.build_seconds, 12.5);
}

TEST(KillMatrixCost, BadRecordsNameTheFile) {
  TempDir dir("cost");
  const auto path = dir / "bad.json";
  auto fails_with = [&](const std::string& text, const std::string& what) {
    write_text(path, text);
    try {
      read_kill_matrix_cost(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const Error& e) {
      EXPECT_NE(e.message().find(path.string()), std::string::npos) << e.message();
      EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
    }
  };
  const std::string head = R"({"format": "dlfl-kill-matrix-cost", "version": 1, )";
  const std::string counts = R"("generated": 3, "compiled": 2, "killed": 1, "runs": 9, "reused": 0, )";
  fails_with("{", "not JSON");
  fails_with(R"({"format": "dlfl-mutant-schemata"})", "not a kill matrix cost record");
  fails_with(R"({"format": "dlfl-kill-matrix-cost", "version": 2})", "version 2");
  fails_with(head + R"("generated": 3})", "no \"compiled\"");
  fails_with(head + R"("generated": -3})", "\"generated\" must be a number from 0");
  fails_with(head + counts + R"("generate_seconds": 0, "build_seconds": -1, "run_seconds": 2})",
             "\"build_seconds\" must be a number from 0");
  fails_with(head + counts + R"("generate_seconds": 0, "build_seconds": "1", "run_seconds": 2})",
             "\"build_seconds\" must be a number from 0");
  fails_with(head + counts + R"("generate_seconds": 0, "build_seconds": 4, "run_seconds": 2, "plain_build_seconds": -2})",
             "\"plain_build_seconds\" must be a number from 0");
  write_text(path, head + counts + R"("generate_seconds": 0, "build_seconds": 4, "run_seconds": 2})");
  EXPECT_EQ(read_kill_matrix_cost(path).runs, 9u);
}

}  // namespace
}  // namespace dlfl::io
