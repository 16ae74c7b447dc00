// Ranking as one self-contained HTML page (inline CSS and JS, no network): a sortable
// ranking table, per-file source views coloured as Jones, Harrold and Stasko's Tarantula
// heatmap (ICSE 2002), the tests with their outcomes, and the run's summary. The data is
// one JSON block; the page renders rows and source lines lazily, so 10^5 elements stay
// usable.
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "dlfl/formula.h"
#include "ranking_text.h"
#include "source_file.h"

namespace dlfl::io::detail {
namespace {

using Json = nlohmann::json;

// Sources embedded at most: past this the page shows lines without their text.
constexpr std::size_t kSourceBudget = std::size_t{64} << 20;
constexpr std::size_t kMaxSourceFile = std::size_t{4} << 20;

std::vector<std::string> source_lines(const std::filesystem::path& path, std::size_t& budget) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxSourceFile || size > budget) return {};
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  budget -= size;
  return lines;
}


const char* const kStyle = R"CSS(
body{font:13px/1.35 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{padding:10px 16px;background:#1f2a44;color:#fff}h1{font-size:17px;margin:0 0 4px}
#summary span{margin-right:18px;white-space:nowrap}#summary b{color:#ffd479}
main{display:flex;gap:10px;padding:10px 10px 0}section{background:#fff;border:1px solid #d5d9e0;border-radius:6px}
#ranking-panel{flex:0 0 46%;min-width:0}#source-panel{flex:1;min-width:0}#tests-panel{margin:10px}
.bar{padding:6px 10px;border-bottom:1px solid #e3e6eb;background:#eef1f5}.scroll{overflow:auto;height:470px}
#tests-panel .scroll{height:220px}table{border-collapse:collapse;width:100%}
th{position:sticky;top:0;background:#e8ecf2;text-align:left;padding:3px 6px;cursor:pointer;user-select:none}
th.sorted:after{content:" \25BE"}th.sorted.asc:after{content:" \25B4"}
td{padding:2px 6px;border-bottom:1px solid #f0f1f4;white-space:nowrap}
#ranking td.name{white-space:normal;word-break:break-all}#ranking tr{cursor:pointer}#ranking tr:hover{background:#eef4ff}
#ranking tr.sel{outline:2px solid #3b6fd8}td.num{text-align:right;font-variant-numeric:tabular-nums}
#source td{font:12px/1.3 ui-monospace,monospace;white-space:pre;border:0;padding:0 8px}
#source td.ln{color:#8a93a3;text-align:right;user-select:none;border-right:1px solid #e3e6eb}
#source tr.cur td{outline:2px solid #3b6fd8}.legend i{display:inline-block;width:12px;height:12px;margin:0 3px -2px 8px}
.outcome-failed,.outcome-crashed,.outcome-timed{color:#b3261e;font-weight:600}.outcome-flaky{color:#a86500;font-weight:600}
.outcome-passed{color:#1f7a35}.fn{color:#4a3a3a;font-size:11px}.more{padding:6px;color:#667}
)CSS";

// Rows and lines are appended in chunks as the view scrolls (lazy rendering), so the DOM
// holds what was looked at, not 10^5 rows.
const char* const kScript = R"JS((() => {
'use strict';
const D = JSON.parse(document.getElementById('dlfl-data').textContent);
const S = D.summary, CHUNK = 200;
const el = id => document.getElementById(id);
const esc = s => String(s).replace(/[&<>"]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'})[c]);
const num = x => Number.isInteger(x) ? String(x) : String(Math.round(x * 1000) / 1000);
const E = D.elements; // [file, first, last, function, ef, ep, kind]
const name = e => { const x = E[e]; if (x[6]) return D.functions[x[3]];
  const f = D.files[x[0]], fn = D.functions[x[3]];
  return f + ':' + x[1] + (x[2] > x[1] ? '-' + x[2] : '') + (fn ? '  ' + fn : ''); };
// Tarantula's colour (Jones, Harrold, Stasko 2002): hue from red (only failing tests)
// to green (only passing), brightness from the larger share of tests that ran the line.
function heat(e) {
  const pf = S.failed_weight > 0 ? E[e][4] / S.failed_weight : 0, pp = S.passed_weight > 0 ? E[e][5] / S.passed_weight : 0;
  if (pf + pp === 0) return '';
  const hue = 120 * pp / (pf + pp), light = 92 - 30 * Math.max(pf, pp);
  return 'hsl(' + hue.toFixed(0) + ',85%,' + light.toFixed(0) + '%)';
}
el('summary').innerHTML = [
  ['formula', D.rankings.map(r => r.formula).join(', ')], ['tie rule', S.tie_rule],
  [S.granularity + 's', S.elements], ['tests', S.tests + ' (' + S.failing + ' failing' + (S.flaky ? ', ' + S.flaky + ' flaky' : '') + ')'],
  ['source root', S.source_root || '.']].map(([k, v]) => '<span>' + esc(k) + ': <b>' + esc(v) + '</b></span>').join('');

let formula = 0, rows = [], shown = 0, sortKey = 'pos', sortAsc = true, selected = -1;
const keys = {pos: r => r[1], best: r => r[2], worst: r => r[3], score: r => r[5], ef: r => E[r[0]][4], ep: r => E[r[0]][5], name: r => name(r[0])};
function rowHtml(r) {
  const x = E[r[0]];
  return '<tr data-element="' + r[0] + '"' + (r[0] === selected ? ' class="sel"' : '') + '><td class="num">' + num(r[1]) +
    '</td><td class="num">' + r[2] + '</td><td class="num">' + r[3] + '</td><td class="num">' + esc(r[4]) +
    '</td><td class="num">' + num(x[4]) + '</td><td class="num">' + num(x[5]) + '</td><td class="name" style="background:' +
    heat(r[0]) + '">' + (x[6] ? esc(D.functions[x[3]]) : esc(D.files[x[0]] + ':' + x[1] + (x[2] > x[1] ? '-' + x[2] : '')) +
    ' <span class="fn">' + esc(D.functions[x[3]]) + '</span>') + '</td></tr>';
}
function more() {
  if (shown >= rows.length) return;
  const next = rows.slice(shown, shown + CHUNK);
  el('ranking').tBodies[0].insertAdjacentHTML('beforeend', next.map(rowHtml).join(''));
  shown += next.length;
  el('shown').textContent = shown + ' of ' + rows.length + ' rows shown (more load as you scroll)';
}
function showRanking() {
  rows = D.rankings[formula].rows.slice();
  const k = keys[sortKey], dir = sortAsc ? 1 : -1;
  rows.sort((a, b) => { const x = k(a), y = k(b); return (x < y ? -1 : x > y ? 1 : a[1] - b[1]) * dir; });
  el('ranking').tBodies[0].innerHTML = '';
  shown = 0;
  more();
  document.querySelectorAll('#ranking th').forEach(th => {
    th.classList.toggle('sorted', th.dataset.key === sortKey);
    th.classList.toggle('asc', th.dataset.key === sortKey && sortAsc);
  });
}
el('formula').innerHTML = D.rankings.map((r, i) => '<option value="' + i + '">' + esc(r.formula) + '</option>').join('');
el('formula').onchange = e => { formula = +e.target.value; showRanking(); };
document.querySelectorAll('#ranking th').forEach(th => th.onclick = () => {
  sortAsc = sortKey === th.dataset.key ? !sortAsc : th.dataset.key === 'pos' || th.dataset.key === 'name' ||
    th.dataset.key === 'best' || th.dataset.key === 'worst';
  sortKey = th.dataset.key;
  showRanking();
});
el('ranking-scroll').onscroll = e => { const s = e.target; if (s.scrollTop + s.clientHeight > s.scrollHeight - 300) more(); };

// Source view: the elements of each file by line; lines render in chunks too.
const byFile = D.files.map(() => new Map());
E.forEach((x, e) => { if (x[0] >= 0) for (let l = x[1]; l <= Math.max(x[1], x[2]); ++l) byFile[x[0]].set(l, e); });
const position = new Map(D.rankings[0] ? D.rankings[0].rows.map(r => [r[0], r]) : []);
let file = -1, lineCount = 0, linesShown = 0;
function lineHtml(l) {
  const e = byFile[file].get(l), text = (D.sources[file] || [])[l - 1];
  let title = '', style = '';
  if (e !== undefined) {
    const x = E[e], r = position.get(e);
    title = ' title="ef=' + num(x[4]) + ' ep=' + num(x[5]) + ' nf=' + num(S.failed_weight - x[4]) + ' np=' +
      num(S.passed_weight - x[5]) + (r ? '; ' + esc(D.rankings[0].formula) + ' ' + esc(r[4]) + ', position ' + num(r[1]) : '') + '"';
    style = ' style="background:' + heat(e) + '"';
  }
  return '<tr id="L' + l + '" data-element="' + (e === undefined ? '' : e) + '"' + title + '><td class="ln">' + l +
    '</td><td' + style + '>' + esc(text === undefined ? '' : text) + '</td></tr>';
}
function moreLines(upTo) {
  const end = Math.min(lineCount, Math.max(linesShown + CHUNK * 2, upTo || 0));
  let html = '';
  for (let l = linesShown + 1; l <= end; ++l) html += lineHtml(l);
  el('source').tBodies[0].insertAdjacentHTML('beforeend', html);
  linesShown = end;
}
function showFile(f, line) {
  if (f !== file) {
    file = f;
    const src = D.sources[f] || [];
    lineCount = Math.max(src.length, ...Array.from(byFile[f].keys()), 0);
    linesShown = 0;
    el('source').tBodies[0].innerHTML = src.length ? '' : '<tr><td></td><td>(source not found under the source root: lines only)</td></tr>';
    el('file').value = f;
  }
  moreLines(line ? line + 40 : 0);
  document.querySelectorAll('#source tr.cur').forEach(r => r.classList.remove('cur'));
  if (line) {
    const row = el('L' + line);
    if (row) { row.classList.add('cur'); const s = el('source-scroll'); s.scrollTop = Math.max(0, row.offsetTop - s.clientHeight / 3); }
  }
}
// Files, most suspicious first (by their best-ranked element).
const fileOrder = D.files.map((_, i) => i);
const fileRank = D.files.map(() => Infinity);
if (D.rankings[0]) D.rankings[0].rows.forEach(r => { const f = E[r[0]][0]; if (f >= 0) fileRank[f] = Math.min(fileRank[f], r[1]); });
fileOrder.sort((a, b) => fileRank[a] - fileRank[b] || (D.files[a] < D.files[b] ? -1 : 1));
el('file').innerHTML = fileOrder.map(f => '<option value="' + f + '">' + esc(D.files[f]) + '</option>').join('');
el('file').onchange = e => showFile(+e.target.value, 0);
el('source-scroll').onscroll = e => { const s = e.target; if (s.scrollTop + s.clientHeight > s.scrollHeight - 300) moreLines(0); };
el('ranking').onclick = ev => {
  const tr = ev.target.closest('tr[data-element]');
  if (!tr) return;
  selected = +tr.dataset.element;
  document.querySelectorAll('#ranking tr.sel').forEach(r => r.classList.remove('sel'));
  tr.classList.add('sel');
  const x = E[selected];
  if (x[0] >= 0) showFile(x[0], x[1]);
};

// Tests: failing first, chunked.
const tests = D.tests.map((t, i) => [i, t]).sort((a, b) => (b[1][2] - a[1][2]) || (a[0] - b[0]));
let testsShown = 0;
function moreTests() {
  const next = tests.slice(testsShown, testsShown + CHUNK);
  el('tests').tBodies[0].insertAdjacentHTML('beforeend', next.map(([, t]) => '<tr><td>' + esc(t[0]) +
    '</td><td class="outcome-' + esc(t[1].split(' ')[0]) + '">' + esc(t[1]) + (t[1] === 'flaky' ? ' ' + num(t[2]) : '') +
    '</td><td>' + esc((t[3] || '').split('\n')[0]) + '</td></tr>').join(''));
  testsShown += next.length;
  el('tests-shown').textContent = testsShown + ' of ' + tests.length + ' shown, failing first';
}
el('tests-scroll').onscroll = e => { const s = e.target; if (s.scrollTop + s.clientHeight > s.scrollHeight - 200) moreTests(); };

showRanking();
moreTests();
const first = D.rankings[0] && D.rankings[0].rows.find(r => E[r[0]][0] >= 0);
if (first) { selected = first[0]; showFile(E[first[0]][0], E[first[0]][1]); showRanking(); }
else if (D.files.length) showFile(fileOrder[0], 0);
})();
)JS";

class HtmlRankingWriter final : public RankingWriter {
 public:
  bool uses_counts() const noexcept override { return true; }

  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions& options) const override {
    const Counts& counts = required_counts(options, spectrum, "html");
    // Elements as [file, first line, last line, function, ef, ep, kind]; names by index.
    std::vector<std::string> files, functions;
    // Keyed by copies: report_path() and element_name() return temporaries.
    std::unordered_map<std::string, std::size_t> file_ids, function_ids;
    auto id_of = [](std::unordered_map<std::string, std::size_t>& ids, std::vector<std::string>& names,
                    std::string_view name) {
      const auto [it, added] = ids.emplace(name, names.size());
      if (added) names.emplace_back(name);
      return it->second;
    };
    Json elements = Json::array();
    for (std::uint32_t e = 0; e < spectrum.element_count(); ++e) {
      const auto& r = spectrum.element(e);
      const bool code = r.kind == ElementKind::code;
      elements.push_back({code ? static_cast<long long>(id_of(file_ids, files, report_path(spectrum.file(e), options.source_root))) : -1,
                          r.first_line, r.last_line,
                          code ? id_of(function_ids, functions, spectrum.function(e)) : id_of(function_ids, functions, spectrum.element_name(e)),
                          counts.ef[e], counts.ep[e], code ? 0 : 1});
    }
    std::size_t budget = kSourceBudget;
    Json sources = Json::array();
    for (const auto& f : files) {
      const auto path = confined_source_file(options.source_root, f);
      sources.push_back(path ? source_lines(*path, budget) : std::vector<std::string>());
    }
    Json ranked = Json::array();
    for (const auto& ranking : rankings) {
      Json rows = Json::array();
      for (const auto& r : ranking.ranking)
        rows.push_back({r.element, r.position(options.tie_rule), r.best, r.worst,
                        readable_score(r.score), std::fabs(r.score) >= kInfiniteScore ? 0.0 : r.score});
      ranked.push_back({{"formula", ranking.formula}, {"rows", std::move(rows)}});
    }
    Json tests = Json::array();
    std::size_t failing = 0, flaky = 0;
    for (const auto& t : spectrum.tests()) {
      failing += t.failed();
      flaky += t.status == TestStatus::flaky;
      tests.push_back({t.name, outcome_text(t), t.failure_weight, t.message});
    }
    const Json data = {
        {"summary",
         {{"granularity", element_word(options)},
          {"tie_rule", tie_rule_name(options.tie_rule)},
          {"elements", spectrum.element_count()},
          {"tests", spectrum.test_count()},
          {"failing", failing},
          {"flaky", flaky},
          {"failed_weight", counts.failed},
          {"passed_weight", counts.passed},
          {"source_root", options.source_root.generic_string()}}},
        {"files", files},
        {"functions", functions},
        {"elements", std::move(elements)},
        {"sources", std::move(sources)},
        {"rankings", std::move(ranked)},
        {"tests", std::move(tests)},
    };
    std::string json = data.dump(-1, ' ', false, Json::error_handler_t::replace);
    // Inside <script>, "</script" ends the element and "<!--" changes how the rest is
    // parsed (HTML's script data states): no '<' may appear, so it and its fellows
    // become JSON escapes, which read back as the same strings.
    std::string safe;
    safe.reserve(json.size());
    for (const char c : json) {
      if (c == '<') safe += "\\u003c";
      else if (c == '>') safe += "\\u003e";
      else if (c == '&') safe += "\\u0026";
      else safe += c;
    }
    out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>dlfl report</title>\n"
        << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<style>" << kStyle
        << "</style></head>\n<body>\n"
        << "<header><h1>dlfl: spectrum-based fault localization report</h1><div id=\"summary\"></div></header>\n"
        << "<main><section id=\"ranking-panel\"><div class=\"bar\"><label>formula <select id=\"formula\"></select>"
        << "</label> <span id=\"shown\"></span></div><div class=\"scroll\" id=\"ranking-scroll\"><table id=\"ranking\">"
        << "<thead><tr><th data-key=\"pos\">#</th><th data-key=\"best\">best</th><th data-key=\"worst\">worst</th>"
        << "<th data-key=\"score\">score</th><th data-key=\"ef\">ef</th><th data-key=\"ep\">ep</th>"
        << "<th data-key=\"name\">element</th></tr></thead><tbody></tbody></table></div></section>\n"
        << "<section id=\"source-panel\"><div class=\"bar\"><label>file <select id=\"file\"></select></label> "
        << "<span class=\"legend\">Tarantula: <i style=\"background:hsl(0,85%,62%)\"></i>failing only "
        << "<i style=\"background:hsl(60,85%,62%)\"></i>both <i style=\"background:hsl(120,85%,62%)\"></i>passing "
        << "only</span></div><div class=\"scroll\" id=\"source-scroll\"><table id=\"source\"><tbody></tbody></table>"
        << "</div></section></main>\n"
        << "<section id=\"tests-panel\"><div class=\"bar\"><b>Tests</b> <span id=\"tests-shown\"></span></div>"
        << "<div class=\"scroll\" id=\"tests-scroll\"><table id=\"tests\"><thead><tr><th>test</th><th>outcome</th>"
        << "<th>message</th></tr></thead><tbody></tbody></table></div></section>\n"
        << "<script type=\"application/json\" id=\"dlfl-data\">" << safe << "</script>\n<script>" << kScript
        << "</script>\n</body></html>\n";
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_html_ranking_writer() { return std::make_unique<HtmlRankingWriter>(); }

}  // namespace dlfl::io::detail
