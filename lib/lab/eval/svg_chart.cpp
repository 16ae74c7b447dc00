// Grouped bar charts as standalone SVG: layout, axes, bars with value labels, legend.
#include "dlfl/lab/eval/svg_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

// Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
constexpr std::array<std::string_view, 8> kColours = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                      "#56B4E9", "#D55E00", "#F0E442", "#000000"};

// Layout in SVG user units (px).
constexpr double kBar = 30, kClusterGap = 26, kPlotHeight = 260, kAxisWidth = 52, kPanelGap = 28,
                 kMinPlotWidth = 160, kMargin = 16;

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// A round axis top at or above `max`: 1, 2, 2.5 or 5 times a power of ten per tick, 5 ticks.
double nice_top(double max) {
  if (!(max > 0)) return 1.0;
  const double raw = max / 5.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * magnitude >= raw) return m * magnitude * 5.0;
  return 10.0 * magnitude * 5.0;
}

double axis_top(const BarPanel& panel) {
  if (panel.y_max) return *panel.y_max;
  double max = 0.0;
  for (const auto& s : panel.series)
    for (const double v : s.values)
      if (!std::isnan(v)) max = std::max(max, v);
  return max <= 1.0 ? 1.0 : nice_top(max);
}

double plot_width(const BarPanel& panel) {
  const double cluster = static_cast<double>(std::max<std::size_t>(panel.series.size(), 1)) * kBar + kClusterGap;
  return std::max(kMinPlotWidth, static_cast<double>(panel.categories.size()) * cluster);
}

void check(const BarChart& chart) {
  if (chart.panels.empty()) throw Error("bar chart: no panel to draw");
  for (const auto& panel : chart.panels) {
    if (!panel.category_notes.empty() && panel.category_notes.size() != panel.categories.size())
      throw Error("bar chart: panel '" + panel.title + "' has " + std::to_string(panel.category_notes.size()) +
                  " category notes for " + std::to_string(panel.categories.size()) + " categories");
    for (const auto& s : panel.series) {
      if (s.values.size() != panel.categories.size())
        throw Error("bar chart: series '" + s.name + "' of panel '" + panel.title + "' has " +
                    std::to_string(s.values.size()) + " values for " +
                    std::to_string(panel.categories.size()) + " categories");
      for (const double v : s.values)
        if (!std::isnan(v) && !(v >= 0.0 && std::isfinite(v)))
          throw Error("bar chart: series '" + s.name + "' has a value that is negative or infinite");
    }
  }
}

void write_panel(std::ostream& out, const BarPanel& panel, double left, double top) {
  const double width = plot_width(panel), y_top = axis_top(panel);
  const double base = top + kPlotHeight;
  const auto y_of = [&](double v) { return base - std::min(v, y_top) / y_top * kPlotHeight; };
  const bool unit = y_top <= 1.0;
  out << "<g>\n<text x=\"" << left + width / 2 << "\" y=\"" << top - 14
      << "\" class=\"panel\" text-anchor=\"middle\">" << escape(panel.title) << "</text>\n";
  for (int t = 0; t <= 5; ++t) {
    const double v = y_top * t / 5.0, y = y_of(v);
    out << "<line x1=\"" << left << "\" x2=\"" << left + width << "\" y1=\"" << y << "\" y2=\"" << y
        << "\" class=\"" << (t == 0 ? "axis" : "grid") << "\"/>\n"
        << "<text x=\"" << left - 6 << "\" y=\"" << y + 4 << "\" class=\"tick\" text-anchor=\"end\">"
        << number(unit ? "%.1f" : "%g", v) << "</text>\n";
  }
  out << "<line x1=\"" << left << "\" x2=\"" << left << "\" y1=\"" << top << "\" y2=\"" << base
      << "\" class=\"axis\"/>\n";
  const double cluster = width / static_cast<double>(std::max<std::size_t>(panel.categories.size(), 1));
  for (std::size_t c = 0; c < panel.categories.size(); ++c) {
    const double cluster_left = left + cluster * static_cast<double>(c);
    const double bars_left = cluster_left + (cluster - kBar * static_cast<double>(panel.series.size())) / 2;
    for (std::size_t s = 0; s < panel.series.size(); ++s) {
      const double v = panel.series[s].values[c], x = bars_left + kBar * static_cast<double>(s);
      const double label_x = x + kBar / 2;
      if (std::isnan(v)) {
        out << "<text x=\"" << label_x << "\" y=\"" << base - 4
            << "\" class=\"value\" text-anchor=\"middle\">n/a</text>\n";
        continue;
      }
      const double y = y_of(v);
      out << "<rect x=\"" << x + 2 << "\" y=\"" << y << "\" width=\"" << kBar - 4 << "\" height=\""
          << base - y << "\" fill=\"" << kColours[s % kColours.size()] << "\"><title>"
          << escape(panel.series[s].name) << ", " << escape(panel.categories[c]) << ": "
          << number("%.4g", v) << "</title></rect>\n"
          << "<text x=\"" << label_x << "\" y=\"" << y - 4 << "\" class=\"value\" text-anchor=\"middle\">"
          << number(unit ? "%.3f" : "%.3g", v) << "</text>\n";
    }
    out << "<text x=\"" << cluster_left + cluster / 2 << "\" y=\"" << base + 18
        << "\" class=\"category\" text-anchor=\"middle\">" << escape(panel.categories[c]) << "</text>\n";
    if (!panel.category_notes.empty() && !panel.category_notes[c].empty())
      out << "<text x=\"" << cluster_left + cluster / 2 << "\" y=\"" << base + 33
          << "\" class=\"note\" text-anchor=\"middle\">" << escape(panel.category_notes[c]) << "</text>\n";
  }
  out << "</g>\n";
}

}  // namespace

void write_svg_bar_chart(std::ostream& out, const BarChart& chart) {
  check(chart);
  double width = kMargin;
  for (const auto& panel : chart.panels) width += kAxisWidth + plot_width(panel) + kPanelGap;
  width += kMargin - kPanelGap;
  const auto& legend = chart.panels.front().series;
  // Legend entries: a swatch and the name, about 7 px a character at 12 px.
  double legend_width = 0;
  for (const auto& s : legend) legend_width += 24 + 7.0 * static_cast<double>(s.name.size()) + 18;
  width = std::max({width, legend_width + 2 * kMargin, 7.5 * static_cast<double>(chart.title.size()) + 2 * kMargin,
                    6.0 * static_cast<double>(chart.subtitle.size()) + 2 * kMargin});
  const double title_y = 28, subtitle_y = 48, legend_y = chart.subtitle.empty() ? 52 : 72;
  const double plot_top = legend_y + 48;
  const double height = plot_top + kPlotHeight + 48;

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      << "<style>\n"
      << ".title{font-size:18px;font-weight:bold;fill:#222}.subtitle{font-size:12px;fill:#555}\n"
      << ".panel{font-size:14px;font-weight:bold;fill:#222}.tick{font-size:11px;fill:#444}\n"
      << ".value{font-size:10px;fill:#222}.category{font-size:12px;fill:#222}.legend{font-size:12px;fill:#222}\n"
      << ".note{font-size:10px;fill:#666}\n"
      << ".axis{stroke:#444;stroke-width:1}.grid{stroke:#ddd;stroke-width:1}\n"
      << "</style>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kMargin << "\" y=\"" << title_y << "\" class=\"title\">" << escape(chart.title)
      << "</text>\n";
  if (!chart.subtitle.empty())
    out << "<text x=\"" << kMargin << "\" y=\"" << subtitle_y << "\" class=\"subtitle\">"
        << escape(chart.subtitle) << "</text>\n";
  double x = kMargin;
  for (std::size_t s = 0; s < legend.size(); ++s) {
    out << "<rect x=\"" << x << "\" y=\"" << legend_y - 11 << "\" width=\"14\" height=\"14\" fill=\""
        << kColours[s % kColours.size()] << "\"/>\n<text x=\"" << x + 20 << "\" y=\"" << legend_y
        << "\" class=\"legend\">" << escape(legend[s].name) << "</text>\n";
    x += 24 + 7.0 * static_cast<double>(legend[s].name.size()) + 18;
  }
  double left = kMargin + kAxisWidth;
  for (const auto& panel : chart.panels) {
    write_panel(out, panel, left, plot_top);
    left += plot_width(panel) + kPanelGap + kAxisWidth;
  }
  out << "</svg>\n";
}

}  // namespace dlfl::eval
