#!/usr/bin/env bash
# Checks that dlfl's layers point one way: no file of a layer includes a header of a layer
# it does not build on. Usage: scripts/check-layers.sh [ROOT]   (default: the repository)
# Exit 0 when clean; 1 with one line per offending include, `FILE:LINE: LAYER includes
# HEADER (layer OTHER)`.
#
# A layer is a folder of include/dlfl/ and lib/ (include/dlfl/*.h is core); what each may
# include mirrors the target_link_libraries of lib/*/CMakeLists.txt (public and private),
# closed transitively:
#   core < files < formats;  core < report;  files < eval, graph < localize;
#   files < probe_map;  formats, probe_map < collect;  graph, probe_map < instrument;
#   files, instrument < mutate;
#   everything < bench < tools (the CLI, which may include every layer).
# A new folder of include/dlfl/ or lib/ must be given its place here: the check fails on
# a folder it does not know.
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}

declare -A deps=(
  [core]=""
  [files]="core"
  [formats]="files"
  [report]="core"
  [eval]="files"
  [graph]="files"
  [localize]="graph"
  [probe_map]="files"
  [instrument]="graph probe_map"
  [collect]="formats probe_map"
  [mutate]="files instrument"
  [bench]="eval graph localize collect mutate instrument"
  [runtime]=""
)

# The layers LAYER may include: itself and its dependencies, transitively.
allowed() {
  local seen=" $1 " queue=($1) next d
  while ((${#queue[@]})); do
    next=${queue[0]}
    queue=("${queue[@]:1}")
    for d in ${deps[$next]}; do
      [[ $seen == *" $d "* ]] && continue
      seen+="$d "
      queue+=("$d")
    done
  done
  echo "$seen"
}

status=0
for dir in "$root"/include/dlfl/*/ "$root"/lib/*/; do
  [[ -d $dir ]] || continue
  name=$(basename "$dir")
  if [[ ! -v "deps[$name]" ]]; then
    echo "${dir#"$root"/}: a layer scripts/check-layers.sh does not know; give it its place there"
    status=1
  fi
done
# One pass over every include of the layers' files. A file's layer: include/dlfl/X/... or
# lib/X/... → X, include/dlfl/*.h → core. An included header's: "dlfl/X/..." → X,
# "dlfl/name.h" → core, "../X/..." → X; anything else (the standard library, a header of
# the file's own folder) is not checked.
table=""
for layer in "${!deps[@]}"; do table+="$layer=$(allowed "$layer");"; done
cd "$root" || exit 2
files=$(find include/dlfl lib -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.c' -o -name '*.cu' \) 2>/dev/null | sort)
if [[ -n $files ]]; then
  # shellcheck disable=SC2086
  grep -n -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files | awk -v table="$table" '
    BEGIN {
      n = split(table, entries, ";")
      for (i = 1; i <= n; ++i) if (entries[i] != "") { split(entries[i], kv, "="); ok[kv[1]] = kv[2] }
    }
    {
      file = $0; sub(/:.*/, "", file)
      rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
      header = rest; sub(/^[^"]*"/, "", header); sub(/".*/, "", header)
      split(file, f, "/")
      if (f[1] == "include") layer = (f[4] == "" ? "core" : f[3]); else layer = f[2]
      if (!(layer in ok)) next
      split(header, h, "/")
      if (h[1] == "dlfl") included = (h[3] == "" ? "core" : h[2])
      else if (h[1] == ".." && h[3] != "") included = h[2]
      else next
      if (index(ok[layer], " " included " ") == 0) {
        printf "%s:%s: %s includes %s (layer %s)\n", file, line, layer, header, included
        bad = 1
      }
    }
    END { exit bad }' || status=1
fi
exit $status
