// Shared pieces of the subcommands.
#include "cli_support.h"

#include <iostream>

#include "dlfl/io/atomic_file.h"

namespace dlfl::cli {

void write_output(const std::string& path, const std::function<void(std::ostream&)>& emit) {
  if (path.empty() || path == "-") {
    emit(std::cout);
    std::cout.flush();
    return;
  }
  io::AtomicFile out(path);
  emit(out.stream());
  out.commit();
}

void warn(std::string_view message) { std::cerr << "dlfl: warning: " << message << '\n'; }

}  // namespace dlfl::cli
