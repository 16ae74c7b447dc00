// read_runtime_messages(): the failure messages the runtime's GoogleTest listener wrote
// (include/dlfl_rt/dlfl_rt_messages.h), so runtime collection needs no --gtest_output=json.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <string>
#include <unordered_map>

namespace dlfl::collect {

// Per test name, the messages of its failing runs in the order the runs ended.
using RuntimeMessages = std::unordered_map<std::string, std::deque<std::string>>;

// Reads a messages file. A record cut short at the end (its process died writing it) is
// left out. Throws dlfl::Error("PATH:LINE: ...") when the file cannot be read, lacks the
// header, or holds a malformed record.
RuntimeMessages read_runtime_messages(const std::filesystem::path& path);

// The same, a part at a time, for a file the listener is still appending to: each call adds
// the records completed since the last one to `messages` (a record not complete yet is
// read by a later call). Throws like read_runtime_messages.
class RuntimeMessagesReader {
 public:
  void read_more(const std::filesystem::path& path, RuntimeMessages& messages);

 private:
  std::uint64_t offset_ = 0;  // bytes of the file read and parsed
  std::size_t line_ = 1;      // the line at offset_, for errors
};

}  // namespace dlfl::collect
