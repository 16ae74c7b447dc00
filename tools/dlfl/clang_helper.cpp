// Running the commands that need Clang in dlfl-clang (clang_helper.h).
#include "clang_helper.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "dlfl/error.h"

namespace dlfl::cli {
namespace {

char** g_argv = nullptr;

}  // namespace

void set_command_line(char** argv) { g_argv = argv; }

void run_in_clang_helper([[maybe_unused]] std::string_view command) {
#ifdef DLFL_CLANG_HELPER
  namespace fs = std::filesystem;
  if (g_argv == nullptr) throw std::logic_error("run_in_clang_helper before set_command_line");
  std::error_code ec;
  // The real file, also through a symlink on PATH: the helper is installed beside it.
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot locate the dlfl executable (/proc/self/exe): " + ec.message());
  const fs::path helper = self.parent_path() / DLFL_CLANG_HELPER;
  ::execv(helper.c_str(), g_argv);
  const int error = errno;
  throw Error(helper.string(), 0,
              "cannot run `dlfl " + std::string(command) + "`: " + std::strerror(error) +
                  " (dlfl runs its Clang-based commands in " DLFL_CLANG_HELPER
                  ", built and installed beside dlfl; reinstall or rebuild dlfl)");
#endif
}

}  // namespace dlfl::cli
