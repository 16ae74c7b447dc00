// `dlfl convert IN OUT`: converts a spectrum between GZoltar text, legacy and native.
#include <iostream>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/formats/spectrum_formats.h"

namespace dlfl::cli {
namespace {

struct ConvertOptions {
  std::string input, output, from, to;
};

void run_convert(const ConvertOptions& o) {
  const Spectrum s = o.from.empty() ? io::read_spectrum(o.input)
                                    : io::read_spectrum(o.input, io::parse_spectrum_format(o.from));
  const io::SpectrumFormat to = o.to.empty() ? io::infer_output_format(o.output) : io::parse_spectrum_format(o.to);
  io::write_spectrum(s, o.output, to);
  std::cerr << "dlfl: wrote " << o.output << " (" << s.test_count() << " tests, " << s.element_count()
            << " elements)\n";
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  auto* cmd = app.add_subcommand("convert",
                                 "Convert a spectrum between formats.\n"
                                 "Example: dlfl convert sfl/txt spectrum.dlfl   (GZoltar text -> native)");
  cmd->add_option("IN", o->input, kSpectrumInputHelp)->required();
  cmd->add_option("OUT", o->output, "Output path (format from --to, else from the path: .dlfl = native, .mtx = Matrix Market "
                                    "(+ .tests.csv, .elements.csv), .info/.lcov = lcov (+ .tests.csv), a path ending in "
                                    "'matrix' = legacy, else a GZoltar directory)")->required();
  cmd->add_option("--from", o->from, "Input format (default: detected)")
      ->check(CLI::IsMember(name_choices(io::spectrum_format_names())));
  cmd->add_option("--to", o->to, "Output format")->check(CLI::IsMember(name_choices(io::spectrum_format_names())));
  cmd->callback([o] { run_convert(*o); });
}

}  // namespace dlfl::cli
