// Tests for loading: @include resolution, sections across files, include errors, and the
// two source providers (loader.h, source_provider.h).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "test_util.h"

namespace {

using confeval::Config;
using confeval::IncludeError;
using confeval::MemorySources;
using confeval::SourceProvider;
using cetest::capture;
using cetest::position;

using Files = std::map<std::string, std::string>;

// Makes a provider holding `files` under the names it will be asked for; the fixture below
// runs every test once with each provider.
class MemoryFixture {
 public:
  std::string root() const { return "cfg"; }
  const SourceProvider& provider(const Files& files) {
    for (const auto& [name, text] : files) {
      sources_.add(root() + "/" + name, text);
    }
    return sources_;
  }

 private:
  MemorySources sources_;
};

class DiskFixture {
 public:
  DiskFixture() {
    // Unique per test and per process: dlfl may run the same test for several faults at once.
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string leaf = "confeval_" + std::to_string(::getpid()) + "_" +
                       info->test_suite_name() + "_" + info->name();
    std::replace(leaf.begin(), leaf.end(), '/', '_');
    dir_ = std::filesystem::path(::testing::TempDir()) / leaf;
    std::filesystem::remove_all(dir_);
  }
  ~DiskFixture() { std::filesystem::remove_all(dir_); }
  DiskFixture(const DiskFixture&) = delete;
  DiskFixture& operator=(const DiskFixture&) = delete;

  std::string root() const { return dir_.generic_string(); }
  const SourceProvider& provider(const Files& files) {
    for (const auto& [name, text] : files) {
      const std::filesystem::path path = dir_ / name;
      std::filesystem::create_directories(path.parent_path());
      std::ofstream(path, std::ios::binary) << text;
    }
    return sources_;
  }

 private:
  std::filesystem::path dir_;
  confeval::FileSources sources_;
};

template <typename Fixture>
class Includes : public ::testing::Test {
 protected:
  Config load(const Files& files, const std::string& main = "main.conf") {
    const SourceProvider& sources = fixture_.provider(files);
    return confeval::load_config(fixture_.root() + "/" + main, sources);
  }
  std::string name(const std::string& file) const { return fixture_.root() + "/" + file; }

  Fixture fixture_;
};

using Providers = ::testing::Types<MemoryFixture, DiskFixture>;
TYPED_TEST_SUITE(Includes, Providers);

TYPED_TEST(Includes, SingleFile) {
  EXPECT_EQ(this->load({{"main.conf", "a = 1"}}).get_int("a"), 1);
}

TYPED_TEST(Includes, IncludedKeysCanBeReferenced) {
  const Config c = this->load({{"main.conf", "@include \"base.conf\"\nport = base_port + 1"},
                               {"base.conf", "base_port = 8000"}});
  EXPECT_EQ(c.get_int("port"), 8001);
  EXPECT_EQ(c.entries()[0].path, "base_port");  // included keys take the include's place
}

TYPED_TEST(Includes, TargetsAreRelativeToTheIncludingFile) {
  const Config c =
      this->load({{"main.conf", "@include \"conf.d/db.conf\""},
                  {"conf.d/db.conf", "@include \"../common.conf\"\n@include \"pool.conf\""},
                  {"conf.d/pool.conf", "pool = 4"},
                  {"common.conf", "common = true"}});
  EXPECT_TRUE(c.get_bool("common"));
  EXPECT_EQ(c.get_int("pool"), 4);
}

TYPED_TEST(Includes, SectionsDoNotCrossFiles) {
  const Config c = this->load({{"main.conf", "[app]\n@include \"inc.conf\"\nname = 'x'"},
                               {"inc.conf", "top = 1\n[other]\nk = 2"}});
  EXPECT_TRUE(c.contains("top"));
  EXPECT_TRUE(c.contains("other.k"));
  EXPECT_TRUE(c.contains("app.name"));  // [app] resumes after the include
}

TYPED_TEST(Includes, EntriesRememberTheirFile) {
  const Config c = this->load({{"main.conf", "@include \"inc.conf\""}, {"inc.conf", "\nk = 2"}});
  EXPECT_EQ(c.entry("k")->where.file, this->name("inc.conf"));
  EXPECT_EQ(position(c.entry("k")->where), "2:1");
}

TYPED_TEST(Includes, MissingIncludeIsLocatedAtTheDirective) {
  const IncludeError e = capture<IncludeError>(
      [&] { this->load({{"main.conf", "a = 1\n  @include \"gone.conf\""}}); });
  EXPECT_EQ(e.message(), "cannot read '" + this->name("gone.conf") + "'");
  EXPECT_EQ(e.where().file, this->name("main.conf"));
  EXPECT_EQ(position(e.where()), "2:3");
}

TYPED_TEST(Includes, MissingRootFile) {
  const IncludeError e = capture<IncludeError>([&] { this->load({}, "absent.conf"); });
  EXPECT_EQ(e.message(), "cannot read '" + this->name("absent.conf") + "'");
}

TYPED_TEST(Includes, CycleIsReportedWithTheChain) {
  const IncludeError e = capture<IncludeError>([&] {
    this->load({{"main.conf", "@include \"a.conf\""},
                {"a.conf", "x = 1\n@include \"b.conf\""},
                {"b.conf", "@include \"a.conf\""}});
  });
  EXPECT_EQ(e.message(), "include cycle: " + this->name("main.conf") + " -> " +
                             this->name("a.conf") + " -> " + this->name("b.conf") + " -> " +
                             this->name("a.conf"));
  EXPECT_EQ(e.where().file, this->name("b.conf"));
}

TYPED_TEST(Includes, SyntaxErrorNamesTheIncludedFile) {
  const confeval::SyntaxError e = capture<confeval::SyntaxError>(
      [&] { this->load({{"main.conf", "@include \"bad.conf\""}, {"bad.conf", "a = = 1"}}); });
  EXPECT_EQ(e.where().file, this->name("bad.conf"));
  EXPECT_EQ(position(e.where()), "1:5");
}

TYPED_TEST(Includes, DiamondIncludeDefinesKeysTwice) {
  const confeval::EvalError e = capture<confeval::EvalError>([&] {
    this->load({{"main.conf", "@include \"a.conf\"\n@include \"b.conf\""},
                {"a.conf", "@include \"shared.conf\""},
                {"b.conf", "@include \"shared.conf\""},
                {"shared.conf", "s = 1"}});
  });
  EXPECT_EQ(e.message(), "duplicate key 's' (first set at " + this->name("shared.conf") + ":1:1)");
}

// --- limits and the plain providers ------------------------------------------------------

TEST(Loader, DepthLimit) {
  MemorySources sources;
  for (int i = 0; i < 5; ++i) {
    sources.add("f" + std::to_string(i), "@include \"f" + std::to_string(i + 1) + "\"");
  }
  sources.add("f5", "leaf = 1");
  EXPECT_EQ(confeval::load_config("f0", sources, {5}).get_int("leaf"), 1);
  const IncludeError e = capture<IncludeError>([&] { confeval::load_config("f0", sources, {4}); });
  EXPECT_EQ(e.message(), "includes nested deeper than 4 levels");
  EXPECT_EQ(e.where().file, "f4");
}

TEST(Loader, ProgramKeepsEverySourceText) {
  const MemorySources sources{{"m", "@include \"i\"\nb = 2"}, {"i", "a = 1"}};
  const confeval::Program program = confeval::load_program("m", sources);
  ASSERT_EQ(program.assignments.size(), 2u);
  EXPECT_EQ(program.assignments[0].path(), "a");
  EXPECT_EQ(program.sources.at("i"), "a = 1");
  EXPECT_EQ(program.sources.size(), 2u);
}

TEST(Loader, ParseConfigCannotFollowIncludes) {
  EXPECT_THROW(confeval::parse_config("@include \"x.conf\""), IncludeError);
}

TEST(SourceProvider, ResolveIsLexical) {
  const MemorySources sources;
  EXPECT_EQ(sources.resolve("a/b/main.conf", "x.conf"), "a/b/x.conf");
  EXPECT_EQ(sources.resolve("a/b/main.conf", "../x.conf"), "a/x.conf");
  EXPECT_EQ(sources.resolve("main.conf", "./d/x.conf"), "d/x.conf");
  EXPECT_EQ(sources.resolve("a/main.conf", "/etc/x.conf"), "/etc/x.conf");
}

TEST(SourceProvider, MemoryReadsWhatWasAdded) {
  MemorySources sources;
  sources.add("a", "text");
  EXPECT_EQ(sources.read("a"), "text");
  EXPECT_FALSE(sources.read("b").has_value());
}

}  // namespace
