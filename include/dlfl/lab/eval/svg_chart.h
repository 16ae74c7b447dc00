// Grouped bar charts as standalone SVG (one or more panels side by side, a shared legend),
// for comparison reports a person opens in a browser.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace dlfl::eval {

struct BarSeries {
  std::string name;            // legend entry, e.g. a group "dl"
  std::vector<double> values;  // one per category of the panel; NaN = no bar ("n/a")
};

// One panel: clusters of bars, one cluster per category, one bar per series.
struct BarPanel {
  std::string title;                    // e.g. "MRR"
  std::vector<std::string> categories;  // e.g. techniques
  // A smaller second line under each category (e.g. "n = 228 / 1793"); empty = none.
  std::vector<std::string> category_notes;
  std::vector<BarSeries> series;        // same names and order in every panel
  // Top of the value axis. Unset: 1 when every value lies in [0, 1] (shares, MRR, MAP),
  // else a round number above the largest value.
  std::optional<double> y_max;
};

struct BarChart {
  std::string title;
  std::string subtitle;  // a line under the title, e.g. what the bars measure; may be empty
  std::vector<BarPanel> panels;
};

// Writes a complete SVG document (UTF-8, viewBox-sized, no scripts or external
// resources). Each bar is labelled with its value (3 decimals when the axis tops at 1,
// else 3 significant digits); the legend lists the first panel's series. Text is
// XML-escaped. Throws dlfl::Error when the chart has no panel, a series' value count or a
// non-empty category_notes differs from its panel's categories, or a value is negative or
// infinite.
void write_svg_bar_chart(std::ostream& out, const BarChart& chart);

}  // namespace dlfl::eval
