// Python functions by indentation: nesting, decorators, continuation lines, strings.
#include "dlfl/collect/python_functions.h"

#include <gtest/gtest.h>

namespace dlfl::collect {
namespace {

TEST(PythonFunctions, FindsQualifiedFunctionsAndTheirLines) {
  const char* source =
      "import os\n"                     // 1
      "\n"                              // 2
      "@decorator(\n"                   // 3
      "    arg)\n"                      // 4
      "def top(a,\n"                    // 5
      "        b):\n"                   // 6
      "    '''doc\n"                    // 7
      "def not_a_function():\n"         // 8
      "    '''\n"                       // 9
      "    def inner():\n"              // 10
      "        return 1\n"              // 11
      "    # a comment at the outer level\n"  // 12
      "    return inner()\n"            // 13
      "\r\n"                            // 14
      "class Cls:\n"                    // 15
      "    x = 1\n"                     // 16
      "    async def method(self):\n"   // 17
      "        y = {\n"                 // 18
      "'key': 1}\n"                     // 19
      "        return y\n"              // 20
      "\n"                              // 21
      "value = top(1, 2)\n";            // 22
  const auto functions = find_python_functions(source);
  ASSERT_EQ(functions.size(), 3u);
  EXPECT_EQ(functions[0].name, "top");
  EXPECT_EQ(functions[0].first_line, 3u);
  EXPECT_EQ(functions[0].last_line, 13u);
  EXPECT_EQ(functions[1].name, "top.<locals>.inner");
  EXPECT_EQ(functions[1].first_line, 10u);
  EXPECT_EQ(functions[1].last_line, 11u);
  EXPECT_EQ(functions[2].name, "Cls.method");
  EXPECT_EQ(functions[2].first_line, 17u);
  EXPECT_EQ(functions[2].last_line, 20u);
  EXPECT_EQ(python_function_at(functions, 11), "top.<locals>.inner");
  EXPECT_EQ(python_function_at(functions, 13), "top");
  EXPECT_EQ(python_function_at(functions, 19), "Cls.method");
  EXPECT_EQ(python_function_at(functions, 16), "");
  EXPECT_EQ(python_function_at(functions, 22), "");
}

TEST(PythonFunctions, UnreadableSourceGivesWhatCouldBeRead) {
  EXPECT_TRUE(find_python_functions("").empty());
  const auto functions = find_python_functions("def f(:\n  x = '''\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].name, "f");
}

}  // namespace
}  // namespace dlfl::collect
