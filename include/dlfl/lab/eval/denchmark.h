// Denchmark importer: reads the Denchmark bug-report benchmark (Kim, Kim, Lee, MSR 2021)
// from a user's copy into BugReports.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/eval/bugset.h"

namespace dlfl::eval {

// Where a Denchmark_BRs checkout keeps one XML file per report:
// <root>/Generator/data/final_dataset/full/<owner+repo>/<number>.xml
inline constexpr std::string_view denchmark_reports_subdir = "Generator/data/final_dataset/full";

struct DenchmarkImportOptions {
  // false: a malformed report (or metadata file) is skipped and reported in `warnings`;
  // true: the first one throws dlfl::Error naming the file.
  bool strict = false;
  // Worker threads for parsing; 0 = one per hardware thread, at most 8.
  unsigned threads = 0;
};

// What Denchmark says about one project (from report.csv and Dataset.xlsx).
struct DenchmarkProject {
  std::string category;                    // see BugReport::category; empty if unknown
  std::vector<std::string> languages;      // report.csv's language flags, e.g. "c++"
  std::vector<std::string> dl_frameworks;  // report.csv's framework flags, e.g. "torch"
};

struct DenchmarkImport {
  std::vector<BugReport> bugs;        // sorted by project, then by numeric issue number
  std::vector<std::string> warnings;  // one line each, "FILE: what" / "FILE:LINE: what"
  std::size_t skipped_reports = 0;    // malformed reports left out of `bugs`
};

// Imports every report under `dir`, which is a Denchmark_BRs checkout (holding
// Generator/, report.csv, Dataset.xlsx) or the directory that contains one.
//
// Each bug's category comes from Dataset.xlsx, sheet "Project_Classes", column "Type"
// (the paper's final classification; project_description.csv's O/X columns are only
// keyword hits in the project description, not categories, so they are not used), its
// languages and DL frameworks from report.csv's O/X columns. A missing or unreadable
// metadata file is a warning (fields stay empty) unless `strict`.
//
// Per report: <bug id open_date closed_time> with <summary> and <description>, then one
// <commit id date> of <modification change_type old_name new_name> entries. A
// modification's changed lines are those of <modified_lines> (lines outside functions)
// together with those of each <method> (lines inside it): Denchmark files each changed
// line under exactly one of them. 'None' as a name means no such file; backslashes in
// paths become '/'. A report is malformed (skipped or fatal) when it is not well-formed
// XML, lacks the bug id or the commit, its bug id differs from its file name, it has more
// than one commit, a change type is unknown, or a line list holds anything but positive
// decimal numbers separated by commas.
//
// Throws dlfl::Error when `dir` holds no Denchmark reports directory.
DenchmarkImport import_denchmark(const std::filesystem::path& dir,
                                 const DenchmarkImportOptions& options = {});

// Parses one report's XML text. `project` and `file_stem` come from the report's path
// (".../<project>/<file_stem>.xml"); `source_name` labels error messages. Leaves the
// project metadata fields (category, languages, dl_frameworks) empty. Throws dlfl::Error
// "SOURCE[:LINE]: what" for a malformed report.
BugReport parse_denchmark_report(std::string_view xml_text, const std::string& project,
                                 const std::string& file_stem, const std::string& source_name);

// Reads report.csv (project, counts, then one O/X column per DL framework and per
// language) into project -> languages and frameworks. Throws dlfl::Error naming the file.
std::map<std::string, DenchmarkProject> read_denchmark_report_csv(
    const std::filesystem::path& path);

// Reads Dataset.xlsx's "Project_Classes" sheet into project -> category. Throws
// dlfl::Error naming the file.
std::map<std::string, std::string> read_denchmark_project_classes(
    const std::filesystem::path& xlsx_path);

}  // namespace dlfl::eval
