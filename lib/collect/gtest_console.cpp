// parse_gtest_console(): one test's result in GoogleTest's console protocol, the lines
// every GoogleTest version prints ("[ RUN      ] Suite.Test", "[       OK ] Suite.Test
// (0 ms)", "[  FAILED  ] Suite.Test, where GetParam() = 3 (0 ms)"); read when a run wrote
// no report (a GoogleTest that knows no JSON, a test that ended the process early).
#include <string>

#include "dlfl/collect/test_outcome.h"

namespace dlfl::collect {
namespace {

// The test named after a console tag: "T", "T (0 ms)", "T, where GetParam() = ...".
bool names(std::string_view rest, std::string_view test) {
  if (!rest.starts_with(test)) return false;
  rest.remove_prefix(test.size());
  return rest.empty() || rest.front() == ' ' || rest.front() == ',' || rest.front() == '\r';
}

}  // namespace

GtestConsoleResult parse_gtest_console(std::string_view output, std::string_view test) {
  GtestConsoleResult result;
  std::size_t run_end = std::string_view::npos;  // where the test's own output begins
  for (std::size_t start = 0; start < output.size();) {
    std::size_t end = output.find('\n', start);
    if (end == std::string_view::npos) end = output.size();
    const std::string_view line = output.substr(start, end - start);
    // Colour codes may precede the tag when GTEST_COLOR=yes; the tag is 12 characters.
    const std::size_t tag = line.find("[ ");
    if (tag != std::string_view::npos && line.size() >= tag + 13) {
      const std::string_view kind = line.substr(tag, 12);
      std::string_view rest = line.substr(tag + 12);
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\x1b')) {
        if (rest.front() == '\x1b') {  // the colour reset after the tag
          const auto m = rest.find('m');
          rest.remove_prefix(m == std::string_view::npos ? rest.size() : m + 1);
        } else {
          rest.remove_prefix(1);
        }
      }
      if (names(rest, test)) {
        if (kind == "[ RUN      ]") {
          result = {};
          result.started = true;
          run_end = end + 1;
        } else if (kind == "[       OK ]" || kind == "[  FAILED  ]" || kind == "[  SKIPPED ]") {
          // The summary repeats a failed test's FAILED line; the first one ends it.
          if (!result.ended) {
            result.ended = true;
            result.failed = kind == "[  FAILED  ]";
            result.skipped = kind == "[  SKIPPED ]";
            if (result.failed && run_end != std::string_view::npos && run_end <= start)
              result.failures = std::string(output.substr(run_end, start - run_end));
          }
        }
      }
    }
    start = end + 1;
  }
  while (!result.failures.empty() && result.failures.back() == '\n') result.failures.pop_back();
  return result;
}

bool gtest_rejected_output_format(std::string_view output) {
  return output.find("WARNING: unrecognized output format \"json\" ignored.") != std::string_view::npos;
}

}  // namespace dlfl::collect
