// Tests for dotted key paths and wildcard patterns (path.h).
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using Segments = std::vector<std::string>;

TEST(Path, SplitsOnDots) {
  EXPECT_EQ(confeval::split_path("a.b.c"), (Segments{"a", "b", "c"}));
  EXPECT_EQ(confeval::split_path("a"), (Segments{"a"}));
  EXPECT_EQ(confeval::split_path(""), (Segments{}));
}

TEST(Path, JoinsAPrefix) {
  const Segments s{"a", "b", "c"};
  EXPECT_EQ(confeval::join_path(s, 0), "");
  EXPECT_EQ(confeval::join_path(s, 2), "a.b");
  EXPECT_EQ(confeval::join_path(s, 9), "a.b.c");
}

TEST(Path, ParentAndLastSegment) {
  EXPECT_EQ(confeval::parent_path("a.b.c"), "a.b");
  EXPECT_EQ(confeval::parent_path("a"), "");
  EXPECT_EQ(confeval::last_segment("a.b.c"), "c");
  EXPECT_EQ(confeval::last_segment("a"), "a");
}

TEST(PathMatches, ExactPaths) {
  EXPECT_TRUE(confeval::path_matches("server.port", "server.port"));
  EXPECT_FALSE(confeval::path_matches("server.port", "server.host"));
  EXPECT_FALSE(confeval::path_matches("server", "server.port"));
}

TEST(PathMatches, StarMatchesExactlyOneSegment) {
  EXPECT_TRUE(confeval::path_matches("servers.*.port", "servers.web.port"));
  EXPECT_FALSE(confeval::path_matches("servers.*.port", "servers.port"));
  EXPECT_FALSE(confeval::path_matches("servers.*.port", "servers.a.b.port"));
  EXPECT_TRUE(confeval::path_matches("*", "name"));
  EXPECT_FALSE(confeval::path_matches("*", "a.b"));
}

}  // namespace
