// Tests for svg_chart.h: a complete, escaped SVG document with one bar per value, and
// errors for charts that cannot be drawn.
#include "dlfl/lab/eval/svg_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

BarChart two_panels() {
  BarChart chart;
  chart.title = "Accuracy <DL & traditional>";
  for (const char* metric : {"MRR", "MAP"}) {
    BarPanel panel;
    panel.title = metric;
    panel.categories = {"buglocator", "bluir"};
    panel.series = {{"traditional", {0.514, 0.435}}, {"dl", {0.485, std::nan("")}}};
    chart.panels.push_back(panel);
  }
  return chart;
}

TEST(SvgChart, OneBarPerValueAndALegend) {
  std::ostringstream out;
  write_svg_bar_chart(out, two_panels());
  const std::string svg = out.str();
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  // 3 bars per panel (one value is NaN: "n/a") + 2 legend swatches + the background.
  EXPECT_EQ(count(svg, "<rect"), 2u * 3u + 2u + 1u);
  EXPECT_EQ(count(svg, ">n/a<"), 2u);
  EXPECT_NE(svg.find(">0.514<"), std::string::npos);  // value labels, 3 decimals on a 0..1 axis
  EXPECT_NE(svg.find("Accuracy &lt;DL &amp; traditional&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<DL"), std::string::npos);
  EXPECT_EQ(count(svg, ">traditional<"), 1u);  // legend only
  BarChart noted = two_panels();
  noted.panels[0].category_notes = {"n = 228 / 1793", ""};
  std::ostringstream with_notes;
  write_svg_bar_chart(with_notes, noted);
  EXPECT_EQ(count(with_notes.str(), "class=\"note\""), 1u);
}

TEST(SvgChart, AxisAboveOneIsRounded) {
  BarChart chart;
  BarPanel panel;
  panel.title = "first rank";
  panel.categories = {"a"};
  panel.series = {{"g", {7.3}}};
  chart.panels.push_back(panel);
  std::ostringstream out;
  write_svg_bar_chart(out, chart);
  EXPECT_NE(out.str().find(">10<"), std::string::npos);  // ticks 0, 2, ..., 10
  EXPECT_NE(out.str().find(">7.3<"), std::string::npos);
}

TEST(SvgChart, RejectsWhatItCannotDraw) {
  std::ostringstream out;
  EXPECT_THROW(write_svg_bar_chart(out, BarChart{}), Error);
  BarChart ragged = two_panels();
  ragged.panels[1].series[0].values.pop_back();
  EXPECT_THROW(write_svg_bar_chart(out, ragged), Error);
  BarChart notes = two_panels();
  notes.panels[0].category_notes = {"n = 1"};
  EXPECT_THROW(write_svg_bar_chart(out, notes), Error);
  BarChart negative = two_panels();
  negative.panels[0].series[0].values[0] = -1;
  EXPECT_THROW(write_svg_bar_chart(out, negative), Error);
}

}  // namespace
}  // namespace dlfl::eval
