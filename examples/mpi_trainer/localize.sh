#!/usr/bin/env bash
# Localizes one seeded fault of mpi_trainer with dlfl's runtime path: configure the
# faulty build (its compilation database), `dlfl instrument` a probed copy, build it with
# dlfl's runtime, collect every CTest test (each its own `mpirun -np K`; every rank writes
# its own snapshot, the ranks of a test are joined into one test covering `rank=K`), rank
# with DStar² and Ochiai, and score the ranking against faults/faults.json with `dlfl eval`
# (average tie rule, line and function level).
#   examples/mpi_trainer/localize.sh FAULT_ID [OUT_DIR]     (DLFL=path/to/dlfl)
# Prints `FORMULA LEVEL POSITION OF RANKED` lines after the collection summary; leaves
# OUT_DIR/spectrum.dlfl and OUT_DIR/FORMULA-LEVEL.csv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fault=${1:?usage: $0 FAULT_ID [OUT_DIR]}
out=${2:-$root/build/mpi_trainer/$fault}
dlfl=${DLFL:-$root/build/tools/dlfl/dlfl}
[ -x "$dlfl" ] || { echo "$0: no dlfl at $dlfl (build dlfl_cli and dlfl_rt, or set DLFL)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "$0: needs mpirun (Debian: openmpi-bin libopenmpi-dev)" >&2; exit 2; }
mkdir -p "$out"

# The plain tree only needs configuring: instrument reads its compilation database.
cmake -S "$here" -B "$out/plain" -G Ninja -DMPI_TRAINER_FAULT="$fault" >/dev/null
rm -rf "$out/instrumented"
"$dlfl" instrument -q -j2 -p "$out/plain" --root "$here" --out "$out/instrumented" --exclude tests/ >/dev/null
cmake -S "$out/instrumented" -B "$out/instrumented-build" -G Ninja -DMPI_TRAINER_FAULT="$fault" \
  -DCMAKE_CXX_FLAGS="$("$dlfl" config --cflags)" -DCMAKE_EXE_LINKER_FLAGS="$("$dlfl" config --libs)" >/dev/null
cmake --build "$out/instrumented-build" -j2 >/dev/null

"$dlfl" collect --runtime --ctest "$out/instrumented-build" -j2 --timeout 120 -q -o "$out/spectrum.dlfl"

# The ground truth as `dlfl eval --truth` lines: file:LINE:function for each faulty line.
/usr/bin/python3 - "$here/faults/faults.json" "$fault" > "$out/truth.txt" <<'PY'
import json, sys
fault = next(f for f in json.load(open(sys.argv[1])) if f["id"] == sys.argv[2])
for line in fault["lines"]:
    print(f'{fault["file"]}:{line}:{fault["function"]}')
PY
for formula in dstar2 ochiai; do
  "$dlfl" rank "$out/spectrum.dlfl" --formula "$formula" --ties average --format csv -o "$out/$formula-line.csv"
  for level in line function; do
    "$dlfl" eval "$out/$formula-line.csv" --truth "$out/truth.txt" --level "$level" --ties average \
      --format csv -o "$out/$formula-$level-eval.csv"
    awk -F, -v f="$formula" -v l="$level" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
      { print f, l, $col["first_rank"], "of", $col["elements"] }' "$out/$formula-$level-eval.csv"
  done
done
