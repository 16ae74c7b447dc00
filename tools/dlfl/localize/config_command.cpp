// `dlfl config --cflags | --libs [--gtest] | --gtest-listener-source | --gtest-cmake`: the flags that build
// an instrumented tree against this dlfl's runtime, found relative to the running executable.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/error.h"
#include "runtime_layout.h"

namespace dlfl::cli {
namespace {

namespace fs = std::filesystem;

struct ConfigOptions {
  bool cflags = false;
  bool libs = false;
  bool gtest = false;
  bool include_dir = false;
  bool lib_dir = false;
  bool listener_source = false;
  bool gtest_cmake = false;
};

void run_config(const ConfigOptions& o) {
  const RuntimeLayout l = locate_runtime();
  std::vector<std::string> words;
  if (o.include_dir) words.push_back(l.include_dir.string());
  if (o.lib_dir) words.push_back(l.lib_dir.string());
  if (o.listener_source) {
    if (!fs::exists(l.listener)) throw Error(l.listener.string() + " is missing: reinstall dlfl");
    words.push_back(l.listener.string());
  }
  if (o.gtest_cmake)
    for (auto& arg : gtest_cmake_arguments(l)) words.push_back(std::move(arg));
  if (o.cflags) words.push_back("-I" + l.include_dir.string());
  if (o.libs) {
    if (o.gtest) {
      const fs::path listener = l.lib_dir / "libdlfl_rt_gtest.so";
      if (!fs::exists(listener))
        throw Error(listener.string() + " is missing: this dlfl was built without GoogleTest");
    }
    for (auto& word : runtime_link_words(l, o.gtest)) words.push_back(std::move(word));
  }
  for (std::size_t i = 0; i < words.size(); ++i) std::cout << (i ? " " : "") << words[i];
  std::cout << '\n';
}

}  // namespace

void add_config_command(CLI::App& app) {
  auto o = std::make_shared<ConfigOptions>();
  auto* cmd = app.add_subcommand(
      "config",
      "Print the compiler and linker flags that build sources rewritten by `dlfl instrument`.\n"
      "Example: g++ $(dlfl config --cflags) -c instr/src/a.cpp && g++ a.o tests.o -lgtest $(dlfl config --libs --gtest)\n"
      "A project that builds its own GoogleTest compiles the listener instead:\n"
      "  add_executable(tests ... $(dlfl config --gtest-listener-source)) + $(dlfl config --libs)\n"
      "or, with no edit of the project, CMake compiles it into every executable linking GoogleTest:\n"
      "  cmake -S . -B build $(dlfl config --gtest-cmake) -DCMAKE_EXE_LINKER_FLAGS=\"$(dlfl config --libs)\"");
  cmd->add_flag("--cflags", o->cflags, "Compiler flags: the include directory of <dlfl_rt/probe.h>");
  cmd->add_flag("--libs", o->libs, "Linker flags for libdlfl_rt (with an rpath)");
  cmd->add_flag("--gtest", o->gtest, "With --libs: also link the GoogleTest listener that brackets each test");
  cmd->add_flag("--include-dir", o->include_dir, "The include directory alone");
  cmd->add_flag("--lib-dir", o->lib_dir, "The library directory alone");
  cmd->add_flag("--gtest-listener-source", o->listener_source,
                "The GoogleTest listener's source file, to compile into test executables that link their own "
                "GoogleTest (any version from 1.7 on) instead of --libs --gtest");
  cmd->add_flag("--gtest-cmake", o->gtest_cmake,
                "CMake arguments that compile the listener into each executable of a project that links GoogleTest, "
                "against the project's GoogleTest (any version from 1.7 on); link with --libs, not --libs --gtest");
  cmd->callback([o] {
    if (o->gtest && !o->libs) throw Error("config: --gtest only goes with --libs");
    if (!o->cflags && !o->libs && !o->include_dir && !o->lib_dir && !o->listener_source && !o->gtest_cmake)
      throw Error("config: nothing to print; give --cflags, --libs [--gtest], --include-dir, --lib-dir, "
                  "--gtest-listener-source or --gtest-cmake");
    run_config(*o);
  });
}

}  // namespace dlfl::cli
