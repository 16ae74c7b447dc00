// `dlfl rank --format html` in a real headless browser (Debian chromium, through
// scripts/html-screenshot.sh): the DOM after the page's scripts ran holds the expected
// rows, the screenshot is not blank (decoded here), and 10^5 elements render lazily.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <array>
#include <cstdint>
#include <regex>
#include <set>

#include "../support/have_program.h"
#include "../support/shell_output.h"
#include "cli_runner.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/spectrum.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;

const std::string kDemo = source_path("examples/spectra/tensorlite-grid_ceil_div.dlfl");
const std::string kScript = source_path("scripts/html-screenshot.sh");

bool have_chromium() { return dlfl::testing::have_program("chromium"); }

using dlfl::testing::shell_output;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The part of the DOM inside <table id="NAME">.
std::string table(const std::string& dom, const std::string& id) {
  const auto start = dom.find("<table id=\"" + id + "\"");
  const auto end = dom.find("</table>", start);
  return start == std::string::npos || end == std::string::npos ? std::string() : dom.substr(start, end - start);
}

// A minimal PNG decoder (8-bit RGB/RGBA, non-interlaced: what Chromium writes).
struct Image {
  std::uint32_t width = 0, height = 0;
  std::vector<std::array<std::uint8_t, 3>> pixels;
};

std::uint32_t be32(const std::string& s, std::size_t at) {
  return (std::uint32_t(std::uint8_t(s[at])) << 24) | (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

Image decode_png(const std::string& png) {
  Image image;
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return image;
  std::string idat;
  int color_type = -1, depth = 0;
  for (std::size_t at = 8; at + 8 <= png.size();) {
    const std::uint32_t length = be32(png, at);
    const std::string type = png.substr(at + 4, 4);
    if (type == "IHDR") {
      image.width = be32(png, at + 8);
      image.height = be32(png, at + 12);
      depth = std::uint8_t(png[at + 16]);
      color_type = std::uint8_t(png[at + 17]);
    } else if (type == "IDAT") {
      idat += png.substr(at + 8, length);
    }
    at += 12 + length;
  }
  if (depth != 8 || (color_type != 2 && color_type != 6)) return {};
  const std::size_t bpp = color_type == 6 ? 4 : 3, stride = image.width * bpp;
  std::vector<std::uint8_t> raw((stride + 1) * image.height);
  uLongf size = raw.size();
  if (uncompress(raw.data(), &size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK) return {};
  std::vector<std::uint8_t> previous(stride, 0), row(stride);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::uint8_t filter = raw[y * (stride + 1)];
    const std::uint8_t* in = &raw[y * (stride + 1) + 1];
    for (std::size_t x = 0; x < stride; ++x) {
      const int a = x >= bpp ? row[x - bpp] : 0, b = previous[x], c = x >= bpp ? previous[x - bpp] : 0;
      int predictor = 0;
      if (filter == 1) predictor = a;
      else if (filter == 2) predictor = b;
      else if (filter == 3) predictor = (a + b) / 2;
      else if (filter == 4) {
        const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      row[x] = static_cast<std::uint8_t>(in[x] + predictor);
    }
    for (std::uint32_t x = 0; x < image.width; ++x)
      image.pixels.push_back({row[x * bpp], row[x * bpp + 1], row[x * bpp + 2]});
    previous = row;
  }
  return image;
}

class HtmlReport : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_chromium()) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
    const RunResult r = run_dlfl("rank " + kDemo + " --formula dstar2 --formula ochiai --format html --source-root " +
                                 source_path("examples/tensorlite") + " -o " + html().string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  std::filesystem::path html() const { return dir_ / "report.html"; }
  TempDir dir_{"html-report"};
};

TEST_F(HtmlReport, IsOneSelfContainedFile) {
  const std::string page = slurp(html());
  EXPECT_THAT(page, HasSubstr("<style>"));
  EXPECT_THAT(page, HasSubstr("<script>"));
  // Nothing to fetch: no external scripts, styles, images or fonts.
  EXPECT_EQ(count(page, "src=\""), 0u);
  EXPECT_EQ(count(page, "href="), 0u);
  EXPECT_EQ(count(page, "@import"), 0u);
  EXPECT_EQ(count(page, "url("), 0u);
}

TEST_F(HtmlReport, BrowserDomHoldsTheRankingSourceHeatmapAndTests) {
  const std::string dom = shell_output(kScript + " --dump-dom " + html().string());
  ASSERT_THAT(dom, HasSubstr("<html")) << "chromium produced no DOM";
  // Summary.
  EXPECT_THAT(dom, HasSubstr("formula: <b>dstar2, ochiai</b>"));
  EXPECT_THAT(dom, HasSubstr("tie rule: <b>average</b>"));
  EXPECT_THAT(dom, HasSubstr("lines: <b>1284</b>"));
  EXPECT_THAT(dom, HasSubstr("tests: <b>437 (23 failing)</b>"));
  // Ranking: the first 200 of 1284 rows (lazy), the faulty line first.
  const std::string ranking = table(dom, "ranking");
  EXPECT_EQ(count(ranking, "<tr data-element="), 200u);
  EXPECT_THAT(dom, HasSubstr("200 of 1284 rows shown"));
  const auto first_row = ranking.find("<tr data-element=");
  ASSERT_NE(first_row, std::string::npos);
  EXPECT_THAT(ranking.substr(first_row, 600), HasSubstr("src/launch_geometry.cpp:19"));
  EXPECT_THAT(ranking.substr(first_row, 600), HasSubstr("24.0455"));
  // Source view of the top file, line 19 marked and red (covered by failing tests only
  // would be hue 0; it also runs in 22 passing tests, so a red-orange hue below 60).
  const std::string source = table(dom, "source");
  EXPECT_THAT(source, HasSubstr("return n / block;"));
  const std::regex line19(R"(<tr id="L19" data-element="\d+" title="ef=23 ep=22 nf=0 np=\d+; dstar2 24.0455, position 1" class="cur"><td class="ln">19</td><td style="background:hsl\((\d+),)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(source, m, line19)) << source.substr(0, 3000);
  EXPECT_LT(std::stoi(m[1]), 60);
  // Lines no test ran have no colour; `#else` is never compiled.
  EXPECT_THAT(source, HasSubstr("<tr id=\"L20\" data-element=\"\"><td class=\"ln\">20</td><td>#else</td></tr>"));
  // Tests, failing first.
  const std::string tests = table(dom, "tests");
  EXPECT_EQ(count(tests, "<tr><td>"), 200u);
  EXPECT_EQ(count(tests, "class=\"outcome-failed\""), 23u);
}

TEST_F(HtmlReport, ScreenshotIsNotBlank) {
  const auto png = dir_ / "report.png";
  ASSERT_EQ(std::system((kScript + " " + html().string() + " " + png.string() + " 1400x900").c_str()), 0);
  const Image image = decode_png(slurp(png));
  ASSERT_EQ(image.width, 1400u);
  ASSERT_EQ(image.height, 900u);
  std::set<std::uint32_t> colours;
  std::size_t hot = 0, dark = 0;
  for (const auto& p : image.pixels) {
    colours.insert((std::uint32_t(p[0]) << 16) | (std::uint32_t(p[1]) << 8) | p[2]);
    hot += p[0] > 200 && p[1] < 140 && p[2] < 140;  // the heatmap's red
    dark += p[0] < 80 && p[1] < 80 && p[2] < 80;      // text
  }
  EXPECT_GT(colours.size(), 100u);
  EXPECT_GT(hot, 20000u);
  EXPECT_GT(dark, 5000u);
}

// 10^5 elements: the page still opens with 200 rows and the first file's lines.
TEST(HtmlReportScale, HundredThousandElementsRenderLazily) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  TempDir dir("html-scale");
  SpectrumBuilder b;
  for (std::uint32_t f = 0; f < 100; ++f)
    for (std::uint32_t l = 1; l <= 1000; ++l) b.add_element("src/f" + std::to_string(f) + ".cpp", l, l, "fn");
  for (std::uint32_t t = 0; t < 20; ++t) {
    std::vector<std::uint32_t> covered;
    for (std::uint32_t e = t; e < 100000; e += 7 + t) covered.push_back(e);
    b.add_test(t < 3 ? TestCase::fail("T" + std::to_string(t)) : TestCase::pass("T" + std::to_string(t)), covered);
  }
  io::write_native(std::move(b).finish(), dir / "big.dlfl");
  const auto html = dir / "big.html";
  ASSERT_EQ(run_dlfl("rank " + (dir / "big.dlfl").string() + " --format html -o " + html.string()).exit_code, 0);
  const std::string dom = shell_output(kScript + " --dump-dom " + html.string());
  EXPECT_THAT(dom, HasSubstr("200 of 100000 rows shown"));
  EXPECT_EQ(count(table(dom, "ranking"), "<tr data-element="), 200u);
  EXPECT_LT(count(table(dom, "source"), "<tr id=\"L"), 1001u);  // one file's lines at most
}

}  // namespace
}  // namespace dlfl::testing
