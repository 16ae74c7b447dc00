// A BugsC++ defect as a manifest member (lib/lab/eval/bugscpp_json.h).
#include "bugscpp_json.h"

#include <array>

#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_names.h"
#include "dlfl/lab/eval/unified_diff.h"

namespace dlfl::eval {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kBase64[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kBase64[v & 63] : '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::array<int, 256> value{};
  value.fill(-1);
  for (std::size_t i = 0; i < kBase64.size(); ++i) value[static_cast<unsigned char>(kBase64[i])] = static_cast<int>(i);
  if (text.size() % 4) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t v = 0;
    int pad = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        ++pad;
        v <<= 6;
        continue;
      }
      if (pad || value[static_cast<unsigned char>(c)] < 0) return std::nullopt;
      v = (v << 6) | static_cast<std::uint32_t>(value[static_cast<unsigned char>(c)]);
    }
    out += static_cast<char>((v >> 16) & 255);
    if (pad < 2) out += static_cast<char>((v >> 8) & 255);
    if (pad < 1) out += static_cast<char>(v & 255);
  }
  return out;
}

Json file_json(const BugsCppFile& file) {
  if (file.path.empty()) return nullptr;
  if (is_plain_utf8(file.content)) return Json{{"path", file.path}, {"text", file.content}};
  return Json{{"path", file.path}, {"base64", base64_encode(file.content)}};
}

class Reader {
 public:
  Reader(const std::string& source, std::size_t line) : source_(source), line_(line) {}
  [[noreturn]] void fail(const std::string& what) const { throw Error(source_, line_, "\"bugscpp\": " + what); }

  const Json& member(const Json& object, const char* name) const {
    const auto it = object.find(name);
    if (it == object.end()) fail(std::string("missing member \"") + name + "\"");
    return *it;
  }
  std::string text(const Json& object, const char* name) const {
    const Json& v = member(object, name);
    if (!v.is_string()) fail(std::string("member \"") + name + "\" is not a string");
    return v.get<std::string>();
  }
  std::uint32_t count(const Json& v, const char* name) const {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > UINT32_MAX)
      fail(std::string("member \"") + name + "\" holds " + v.dump() + ", not a count");
    return static_cast<std::uint32_t>(v.get<std::uint64_t>());
  }
  std::vector<std::string> texts(const Json& v, const char* name) const {
    if (!v.is_array()) fail(std::string("member \"") + name + "\" is not an array");
    std::vector<std::string> out;
    for (const Json& item : v) {
      if (!item.is_string()) fail(std::string("member \"") + name + "\" holds a non-string");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  BugsCppFile file(const Json& v, const char* name, bool contained) const {
    if (v.is_null()) return {};
    if (!v.is_object()) fail(std::string("member \"") + name + "\" is not an object");
    BugsCppFile file{text(v, "path"), {}};
    if (contained && !repository_path_problem(file.path).empty())
      fail("extra file path \"" + file.path + "\" is not inside the tree (absolute, or with '..')");
    if (v.contains("text")) {
      file.content = text(v, "text");
    } else {
      const auto decoded = base64_decode(text(v, "base64"));
      if (!decoded) fail("invalid base64 content of \"" + file.path + "\"");
      file.content = *decoded;
    }
    return file;
  }

 private:
  const std::string& source_;
  std::size_t line_;
};

}  // namespace

bool is_plain_utf8(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c == 0) return false;
    if (c < 0x80) n = 1, cp = c;
    else if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
    else return false;
    if (i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}

Json bugscpp_json(const BugsCppDefect& d) {
  Json extra_files = Json::array();
  for (const auto& f : d.extra_files) extra_files.push_back(file_json(f));
  return Json{{"url", d.url},
              {"index", d.index},
              {"build", d.build},
              {"build_coverage", d.build_coverage},
              {"test", d.test},
              {"test_coverage", d.test_coverage},
              {"extra_tests", d.extra_tests},
              {"num_cases", d.num_cases},
              {"cases", d.cases},
              {"tags", d.tags},
              {"patches",
               {{"common", file_json(d.common_patch)},
                {"split", file_json(d.split_patch)},
                {"buggy", file_json(d.buggy_patch)},
                {"fixed", file_json(d.fixed_patch)}}},
              {"extra_files", std::move(extra_files)}};
}

BugsCppDefect parse_bugscpp_json(const Json& v, const std::string& source, std::size_t line) {
  const Reader r(source, line);
  if (!v.is_object()) r.fail("not an object");
  BugsCppDefect d;
  d.url = r.text(v, "url");
  d.index = r.count(r.member(v, "index"), "index");
  d.build = r.texts(r.member(v, "build"), "build");
  d.build_coverage = r.texts(r.member(v, "build_coverage"), "build_coverage");
  d.test = r.texts(r.member(v, "test"), "test");
  d.test_coverage = r.texts(r.member(v, "test_coverage"), "test_coverage");
  const Json& extra_tests = r.member(v, "extra_tests");
  if (!extra_tests.is_array()) r.fail("member \"extra_tests\" is not an array");
  for (const Json& commands : extra_tests) d.extra_tests.push_back(r.texts(commands, "extra_tests"));
  d.num_cases = r.count(r.member(v, "num_cases"), "num_cases");
  const Json& cases = r.member(v, "cases");
  if (!cases.is_array()) r.fail("member \"cases\" is not an array");
  for (const Json& c : cases) {
    const std::uint32_t k = r.count(c, "cases");
    if (k == 0 || k > d.num_cases)
      r.fail("case " + std::to_string(k) + " is outside 1.." + std::to_string(d.num_cases));
    d.cases.push_back(k);
  }
  if (d.extra_tests.size() > d.num_cases) r.fail("more extra_tests than cases");
  d.tags = r.texts(r.member(v, "tags"), "tags");
  const Json& patches = r.member(v, "patches");
  if (!patches.is_object()) r.fail("member \"patches\" is not an object");
  d.common_patch = r.file(r.member(patches, "common"), "common", false);
  d.split_patch = r.file(r.member(patches, "split"), "split", false);
  d.buggy_patch = r.file(r.member(patches, "buggy"), "buggy", false);
  d.fixed_patch = r.file(r.member(patches, "fixed"), "fixed", false);
  const Json& extra_files = r.member(v, "extra_files");
  if (!extra_files.is_array()) r.fail("member \"extra_files\" is not an array");
  for (const Json& f : extra_files) d.extra_files.push_back(r.file(f, "extra_files", true));
  return d;
}

}  // namespace dlfl::eval
