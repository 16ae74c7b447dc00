#!/usr/bin/env bash
# The layering check (scripts/check-layers.sh) on fake trees: clean ones pass, and an
# include from a lower layer into a higher one, or a folder it does not know, fails it
# with the file, line and layers named. Usage: check_layers_test.sh CHECK_LAYERS_SH
set -uo pipefail
check=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# tree NAME: a small tree whose layers include what they may.
tree() {
  local t=$tmp/$1
  mkdir -p "$t"/include/dlfl/{files,lab/eval,lab/bench} "$t"/lib/{core,formats,graph,lab/eval,lab/bench}
  printf '#include <vector>\n#include "dlfl/spectrum.h"\n' > "$t/include/dlfl/files/reader.h"
  printf '#include "dlfl/files/reader.h"\n#include "dlfl/spectrum.h"\n' > "$t/include/dlfl/lab/eval/metrics.h"
  printf '#include "dlfl/lab/eval/metrics.h"\n#include "dlfl/files/reader.h"\n' > "$t/include/dlfl/lab/bench/run.h"
  printf '#include "local.h"\n' > "$t/lib/core/spectrum.cpp"
  printf '#include "../core/popcnt.h"\n#include "dlfl/files/reader.h"\n' > "$t/lib/graph/walk.cpp"
  printf '#include "../eval/labels.h"\n#include "../../graph/walk.h"\n' > "$t/lib/lab/bench/runner.cpp"
  echo "$t"
}

# expect NAME STATUS [TEXT]: the check of tree NAME exits STATUS and prints TEXT.
expect() {
  local out status
  out=$("$check" "$tmp/$1" 2>&1)
  status=$?
  if [[ $status -ne $2 ]]; then
    echo "FAIL $1: exit $status, expected $2; output: $out"
    failures=$((failures + 1))
  elif [[ $# -ge 3 && $out != *"$3"* ]]; then
    echo "FAIL $1: output lacks '$3': $out"
    failures=$((failures + 1))
  else
    echo "ok $1"
  fi
}

tree clean > /dev/null
expect clean 0

t=$(tree upward)
printf '#include <string>\n#include "dlfl/lab/eval/metrics.h"\n' > "$t/include/dlfl/files/reader.h"
expect upward 1 "include/dlfl/files/reader.h:2: files includes dlfl/lab/eval/metrics.h (layer lab/eval)"

t=$(tree core_up)
printf '#include "dlfl/lab/bench/run.h"\n' > "$t/include/dlfl/spectrum.h"
expect core_up 1 "include/dlfl/spectrum.h:1: core includes dlfl/lab/bench/run.h (layer lab/bench)"

t=$(tree sibling)
printf '#include "dlfl/graph/walk.h"\n' > "$t/lib/lab/eval/metrics.cpp"
expect sibling 1 "lib/lab/eval/metrics.cpp:1: lab/eval includes dlfl/graph/walk.h (layer graph)"

t=$(tree report_formats)
mkdir -p "$t/lib/report"
printf '#include "dlfl/formats/ranking_reader.h"\n' > "$t/lib/report/ranking_writer.cpp"
expect report_formats 1 "lib/report/ranking_writer.cpp:1: report includes dlfl/formats/ranking_reader.h (layer formats)"

t=$(tree relative)
printf '#include "../lab/bench/steps.h"\n' > "$t/lib/formats/native.cpp"
expect relative 1 "lib/formats/native.cpp:1: formats includes ../lab/bench/steps.h (layer lab/bench)"

t=$(tree relative_lab)
printf '#include "../bench/steps.h"\n' > "$t/lib/lab/eval/metrics.cpp"
expect relative_lab 1 "lib/lab/eval/metrics.cpp:1: lab/eval includes ../bench/steps.h (layer lab/bench)"

t=$(tree unknown)
mkdir -p "$t/lib/newthing"
expect unknown 1 "lib/newthing/: a layer scripts/check-layers.sh does not know"

t=$(tree unknown_lab)
mkdir -p "$t/include/dlfl/lab/newthing"
expect unknown_lab 1 "include/dlfl/lab/newthing/: a layer scripts/check-layers.sh does not know"

exit $((failures > 0))
