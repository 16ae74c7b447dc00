#!/usr/bin/env bash
# Checks that dlfl's layers point one way: no file of a layer includes a header of a layer
# it does not build on. Usage: scripts/check-layers.sh [ROOT]   (default: the repository)
# Exit 0 when clean; 1 with one line per offending include, `FILE:LINE: LAYER includes
# HEADER (layer OTHER)`.
#
# A layer is a folder of include/dlfl/ and lib/ (include/dlfl/*.h is core); the folders of
# lab/ (the researcher's side: lab/eval, lab/mutate, lab/bench) are layers each. What each
# may include mirrors the target_link_libraries of its CMakeLists.txt (public and
# private), closed transitively:
#   core < files < formats;  core < report;  files < graph < localize;
#   files < probe_map;  formats, probe_map < collect;  graph, probe_map < instrument;
#   files < lab/eval;  files, instrument < lab/mutate;
#   lab/eval, localize, collect, lab/mutate < lab/bench;
#   and tools (the CLI, not checked here) may include every layer.
# Nothing of the localizer's layers may include the lab. A new folder of include/dlfl/,
# lib/ or their lab/ must be given its place here: the check fails on a folder it does
# not know.
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}

declare -A deps=(
  [core]=""
  [files]="core"
  [formats]="files"
  [report]="core"
  [graph]="files"
  [localize]="graph"
  [probe_map]="files"
  [instrument]="graph probe_map"
  [collect]="formats probe_map"
  [runtime]=""
  [lab/eval]="files"
  [lab/mutate]="files instrument"
  [lab/bench]="lab/eval graph localize collect lab/mutate"
)
# Folders that group layers rather than being one.
groups=" lab "

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
  if [[ $groups == *" $name "* ]]; then
    for sub in "$dir"*/; do
      [[ -d $sub ]] || continue
      if [[ ! -v "deps[$name/$(basename "$sub")]" ]]; then
        echo "${sub#"$root"/}: a layer scripts/check-layers.sh does not know; give it its place there"
        status=1
      fi
    done
  elif [[ ! -v "deps[$name]" ]]; then
    echo "${dir#"$root"/}: a layer scripts/check-layers.sh does not know; give it its place there"
    status=1
  fi
done
# One pass over every include of the layers' files. A path's layer: include/dlfl/X/... or
# lib/X/... → X (include/dlfl/lab/X/... and lib/lab/X/... → lab/X), include/dlfl/*.h →
# core. An included header's: "dlfl/..." names the path include/dlfl/...; "../..." is
# resolved from the including file's folder; anything else (the standard library, a
# header of the file's own folder) is not checked.
table=""
for layer in "${!deps[@]}"; do table+="$layer=$(allowed "$layer");"; done
cd "$root" || exit 2
files=$(find include/dlfl lib -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.c' -o -name '*.cu' \) 2>/dev/null | sort)
if [[ -n $files ]]; then
  # shellcheck disable=SC2086
  grep -n -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files | awk -v table="$table" -v groups="$groups" '
    BEGIN {
      n = split(table, entries, ";")
      for (i = 1; i <= n; ++i) if (entries[i] != "") { split(entries[i], kv, "="); ok[kv[1]] = kv[2] }
    }
    # The layer of a repository path (a file), or "" for a path outside the layers.
    function layer_of(path,    p, n, base, name) {
      n = split(path, p, "/")
      if (p[1] == "include" && p[2] == "dlfl") base = 3
      else if (p[1] == "lib") base = 2
      else return ""
      if (n == base) return base == 3 ? "core" : ""  # include/dlfl/NAME.h is core

      name = p[base]
      if (index(groups, " " name " ") > 0 && n > base + 1) return name "/" p[base + 1]
      return name
    }
    # DIR/REL with its "." and ".." resolved.
    function resolve(dir, rel,    parts, out, n, m, i, path) {
      m = split(dir "/" rel, parts, "/")
      n = 0
      for (i = 1; i <= m; ++i) {
        if (parts[i] == "" || parts[i] == ".") continue
        if (parts[i] == "..") { if (n > 0) --n; continue }
        out[++n] = parts[i]
      }
      path = ""
      for (i = 1; i <= n; ++i) path = path (i > 1 ? "/" : "") out[i]
      return path
    }
    {
      file = $0; sub(/:.*/, "", file)
      rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
      header = rest; sub(/^[^"]*"/, "", header); sub(/".*/, "", header)
      layer = layer_of(file)
      if (!(layer in ok)) next
      if (header ~ /^dlfl\//) target = "include/" header
      else if (header ~ /^\.\.\//) { dir = file; sub(/\/[^\/]*$/, "", dir); target = resolve(dir, header) }
      else next
      included = layer_of(target)
      if (included == "") next
      if (index(ok[layer], " " included " ") == 0) {
        printf "%s:%s: %s includes %s (layer %s)\n", file, line, layer, header, included
        bad = 1
      }
    }
    END { exit bad }' || status=1
fi
exit $status
