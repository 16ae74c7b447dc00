// Pieces shared by the ranking writers: number formatting and the per-format factories.
// Internal to dlfl_io.
#pragma once

#include <memory>
#include <string>

#include "dlfl/io/ranking_writer.h"

namespace dlfl::io::detail {

// A position: whole numbers without a decimal point ("3"), halves as "2.5".
std::string format_rank(double position);
// The shortest text that reads back to the same double; kInfiniteScore prints as
// 1.7976931348623157e+308 (a finite number every parser accepts).
std::string format_score(double score);
// "code" / "extrinsic".
std::string_view kind_name(ElementKind kind) noexcept;

std::unique_ptr<RankingWriter> make_table_ranking_writer();
std::unique_ptr<RankingWriter> make_csv_ranking_writer();
std::unique_ptr<RankingWriter> make_json_ranking_writer();
std::unique_ptr<RankingWriter> make_gzoltar_ranking_writer();

}  // namespace dlfl::io::detail
