#!/usr/bin/env bash
# Regenerates the seed corpora fuzz/corpus/HARNESS/ from the repository's fixtures: the
# example spectrum converted by dlfl into every format, its rankings, the collect test
# data, the bench and subject files, and small hand-written samples where the tests keep
# theirs inline. Multi-file inputs are joined with "\n=====\n" (fuzz/fuzz_support.h).
# The files it makes are overwritten; the others (reproducers of earlier findings, such as
# fuzz/corpus/test_listing's and call_graph_cache/no-calls, and the deep-nesting inputs of
# the JSON readers' depth bound) are kept.
# Usage: fuzz/make_corpora.sh [DLFL_BINARY]   (default: build/tools/dlfl/dlfl)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dlfl=${1:-$root/build/tools/dlfl/dlfl}
corpus=$root/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in "$root"/fuzz/*_fuzzer.cpp; do n=$(basename "$h" _fuzzer.cpp); mkdir -p "$corpus/$n"; done
sep=$'\n=====\n'
join() { local first=1; for f in "$@"; do [ $first -eq 1 ] || printf '%s' "$sep"; cat "$f"; first=0; done; }
softmax=$root/examples/spectra/softmax

join "$softmax/spectra.csv" "$softmax/matrix.txt" "$softmax/tests.csv" >"$corpus/gzoltar/softmax"
"$dlfl" convert "$softmax" "$tmp/legacy" --to legacy >/dev/null
join "$tmp/legacy/matrix" "$tmp/legacy/spectra" >"$corpus/legacy/softmax"
"$dlfl" convert "$softmax" "$tmp/s.dlfl" >/dev/null
cp "$tmp/s.dlfl" "$corpus/native/softmax.dlfl"
"$dlfl" convert "$softmax" "$tmp/s.mtx" >/dev/null
join "$tmp/s.mtx" "$tmp/s.tests.csv" "$tmp/s.elements.csv" >"$corpus/matrix_market/softmax"
"$dlfl" convert "$softmax" "$tmp/t.info" --to lcov >/dev/null
join "$tmp/t.info" "$tmp/t.tests.csv" >"$corpus/lcov/softmax"
# Merge: the example with itself.
join "$tmp/s.dlfl" "$tmp/s.dlfl" >"$corpus/native_merge/same"

# Rankings: the first byte picks the reader (ranking_fuzzer.cpp).
"$dlfl" rank "$softmax" -f ochiai -f dstar2 --format csv -o "$tmp/r.csv"
"$dlfl" rank "$softmax" -f ochiai -f dstar2 --format json -o "$tmp/r.json"
"$dlfl" rank "$softmax" -f ochiai --format gzoltar -o "$tmp/ochiai.ranking.csv"
{ printf '\0'; cat "$tmp/r.csv"; } >"$corpus/ranking/csv"
{ printf '\1'; cat "$tmp/r.json"; } >"$corpus/ranking/json"
{ printf '\2'; cat "$tmp/ochiai.ranking.csv"; } >"$corpus/ranking/gzoltar"
{ printf '\3'; cat "$tmp/r.csv"; } >"$corpus/ranking/detect"

printf '# faulty lines of the fix\nsrc/softmax.cpp:12\nC:\\\\work\\\\a.cpp:3\n  b.cu:7  \n' >"$corpus/ground_truth/lines"
element=$(sed -n 2p "$tmp/r.csv" | cut -d, -f5-6 | tr , :)
printf '%s\n' "$element" >"$tmp/truth.txt"
"$dlfl" eval "$tmp/r.csv" --truth "$tmp/truth.txt" --id softmax#1 --format csv -o "$tmp/eval.csv"
{ printf '\0'; cat "$tmp/eval.csv"; } >"$corpus/compare_table/eval"
printf '\1p,1,dl,3,0.33,0.5\nq,2,dl,1,1,1\n' >"$corpus/compare_table/headerless"

cat >"$corpus/manifest/bugs" <<'JSON'
{"id":"pytorch#1","project":"pytorch","number":"1","category":"bug","languages":["C++"],"closed":"2020-01-01","fix_commit":"abc","fix_date":"2020-01-02","files":[{"old_name":"a.cpp","new_name":"a.cpp","change_type":"MODIFY","added_lines":[3,4],"deleted_lines":[2]}],"labels":{"first":{"type":"crash","extrinsic":true},"second":{"type":"crash","extrinsic":false},"agreed":{"type":"crash","extrinsic":true}}}
{"id":"tf#2","project":"tf","files":[]}
JSON
# Hostile names (refused): a path out of the tree, an absolute one, a project that is code.
cat >"$corpus/manifest/hostile" <<'JSON'
{"id":"x#1","project":"x","files":[{"old_name":"tests/../../../home/u/notes_test.txt","change_type":"DELETE"}]}
{"id":"x#2","project":"x$(touch /tmp/p)+calc","files":[]}
{"id":"x#3","project":"x","files":[{"old_name":"/abs/tests/a_test.cpp","change_type":"DELETE"}]}
JSON

cp "$root/benchmarks/default-bench.json" "$corpus/bench_config/default"
printf '{"subjects":[{"subject":"a.json","max":3,"seed":0}],"formulas":["ochiai"],"top_n":[1,5],"jobs":2}' \
  >"$corpus/bench_config/small"
i=0
for s in "$root"/examples/*/dlfl-subject.json "$root"/tests/lab/bench/fixture/dlfl-subject.json; do
  cp "$s" "$corpus/subject/$i.json"; i=$((i + 1))
done

printf 'dlfl-probe-map\t1\nroot\t/src\nprobes\t3\nid\t00000000000000ab\nfile\t0\ta.cpp\nfile\t1\tk.cu\nfunction\t0\tf\nsite\t0\t0\t10\t1\t0\th\nsite\t1\t1\t11\t1\t0\td\nsite\t2\t1\t12\t1\t0\thd\n' \
  >"$corpus/probe_map/small"

# A version-2 snapshot (include/dlfl_rt/dlfl_rt_file.h) of 16 probes with a small header
# and name area: outside hits, two ended tests (probe ids, bitset), one still running.
/usr/bin/python3 - "$corpus/runtime_snapshot/small" <<'PY'
import struct, sys
probes, names, header = 16, 64, 256
live_header, outside, live = 96, header, header + probes
records = live + probes
def pad8(b): return b + b'\0' * (-len(b) % 8)
def record(ordinal, outcome, name, hits, bitset):
    if bitset:
        payload = bytearray((probes + 7) // 8)
        for p in hits: payload[p // 8] |= 1 << (p % 8)
        payload, encoding = bytes(payload), 2
    else:
        payload, encoding = b''.join(struct.pack('<I', p) for p in sorted(hits)), 1
    h = struct.pack('<IIiIQQIIQQ8s', 0x44524543, ordinal, outcome, encoding, 10, 20, len(name), len(name),
                    len(payload), len(hits), b'')
    return h + pad8(name.encode()) + pad8(payload)
body = record(1, 1, 'Suite.Fails', [1, 2], False) + record(2, 0, 'Suite.Passes', [3, 15], True)
h = struct.pack('<8sIIQQiIIIQQQQQ', b'DLFLRT02', 2, header, probes, 0xab, 1234, 0, names, 2,
                live_header, outside, live, records, records + len(body))
slot = struct.pack('<IiQQII32s', 1, 0, 30, 0, len('Suite.Runs'), 3, b'') + b'Suite.Runs'.ljust(names, b'\0')
out = bytearray(h.ljust(header, b'\0'))
out[live_header:live_header + len(slot)] = slot
maps = bytearray(2 * probes)
maps[0] = 1; maps[probes + 4] = 1
open(sys.argv[1], 'wb').write(bytes(out) + bytes(maps) + body)
PY
# Read in parts (runtime_snapshot_tail_fuzzer.cpp): two little-endian u16 cut offsets, then
# the file: cut inside the header, between the two records, at the end; a refused poll.
for cuts in '\x00\x00\xd0\x01' '\x20\x01\x78\x01' '\x98\x01\xd0\x01' '\x58\x81\x98\x01'; do
  { printf "$cuts"; cat "$corpus/runtime_snapshot/small"; } >"$corpus/runtime_snapshot_tail/$(printf "$cuts" | od -An -tx1 | tr -d ' ')"
done
# The runtime's failure messages (runtime_messages_fuzzer.cpp): two cut offsets, then the
# file: cut in the header, in a record's head, in its message; a record cut short at the end.
messages=$'dlfl-rt-messages 1\nfailure\tS.A\t9\na.cpp:3\nx\nfailure\tS.B\t12\nb.cpp:4\n\ty\tz\nfailure\tS.A\t7\na.cpp:5\n'
for cuts in '\x05\x00\x1c\x00' '\x1a\x00\x2a\x00' '\x30\x00\x48\x00'; do
  { printf "$cuts"; printf '%s' "$messages"; } >"$corpus/runtime_messages/$(printf "$cuts" | od -An -tx1 | tr -d ' ')"
done
{ printf '\x10\x00\x20\x00'; printf '%sfailure\tS.C\t100\nonly part' "$messages"; } >"$corpus/runtime_messages/cut-short"

cp "$root/tests/collect/data/gcov12_sample.json" "$corpus/gcov_json/gcov12"
{ printf '\0'; cat "$root/tests/collect/data/llvm14_export.json"; } >"$corpus/llvm_cov_export/export"
{ printf '\0'; cat "$root/tests/collect/data/llvm14_static_export.json"; } >"$corpus/llvm_cov_export/static"
{ printf '\1'; cat "$root/tests/collect/data/llvm14_sample.lcov"; } >"$corpus/llvm_cov_export/lcov"

cat >"$corpus/coverage_py/report" <<'JSON'
{"meta": {"version": "6.5.0", "timestamp": "2026-11-25T17:26:49", "branch_coverage": false, "show_contexts": true},
 "files": {"pkg/ops.py": {"executed_lines": [1, 3, 4, 6], "summary": {}, "missing_lines": [7], "excluded_lines": [],
   "contexts": {"1": [""], "3": ["t.py::test_a|run", "t.py::test_b[float16]|setup"], "4": ["t.py::test_a"], "6": ["t.py::test_b[float16]", ""]}},
  "pkg/__init__.py": {"executed_lines": [1], "summary": {}, "missing_lines": [], "excluded_lines": [], "contexts": {"1": [""]}}},
 "totals": {}}
JSON
cat >"$corpus/pytest_run_report/report" <<'JSON'
{"format": "dlfl-pytest-run", "version": 1, "root": "/src", "repeat": 4, "coverage_json": "coverage.json",
 "tests": [{"name": "t.py::test_a[float16]", "runs": ["passed", "failed", "failed", "skipped"],
            "extrinsic": ["dtype=float16", "CUDA_VISIBLE_DEVICES="]},
           {"name": "t.py::test_b", "runs": ["passed"], "extrinsic": []}],
 "functions": {"pkg/a.py": [[3, 9, "Cls.method"], [11, 12, "f"]]}}
JSON
printf '\xEF\xBB\xBF# made by hand\r\ndlfl-call-graph\t1\r\nfunction\tf\ta.cpp\t1\r\nfunction\tg\t\t0\tunknown-calls\r\nfunction\tns::kernel\tk.cu\t10\r\ncall\tf\tg\tdirect\r\ncall\tg\tf\tvirtual\r\ncall\tf\tns::kernel\tlaunch\r\n' \
  >"$corpus/call_graph/small"
# The cache of that graph (lib/graph/call_graph_cache.cpp: an 80-byte header, then the
# CompactCallGraph's arrays); the harness writes the key and payload hash, a header whose
# reserved word is 0xFFFFFFFF keeps its own (zeros here: a stale cache, ignored).
/usr/bin/python3 - "$corpus/call_graph/small" "$corpus/call_graph_cache" <<'PY'
import struct, sys
text = open(sys.argv[1], 'rb').read()
def cache(reserved):
    u64 = lambda *v: struct.pack('<%dQ' % len(v), *v)
    payload = (u64(0, 1, 2, 12) + b'fgns::kernel' + u64(0, 5, 5, 9) + b'a.cppk.cu' + struct.pack('<3I', 1, 0, 10) +
               bytes([0, 1, 0]) + u64(0, 2, 3, 3) + struct.pack('<3I', 1, 2, 0) + bytes([0, 2, 1]))
    return b'DLFLCGC1' + struct.pack('<II', 0x01020304, reserved) + u64(0, 0, 0, 3, 3, 12, 9, 0) + payload
sep = b'\n=====\n'
open(sys.argv[2] + '/small', 'wb').write(text + sep + cache(0))
open(sys.argv[2] + '/stale', 'wb').write(text + sep + cache(0xFFFFFFFF))
open(sys.argv[2] + '/foreign', 'wb').write(text.replace(b'ns::kernel', b'h') + sep + cache(0))
open(sys.argv[2] + '/no-cache', 'wb').write(text)
PY
{ printf '\0'; cat "$root/tests/collect/data/ctest_sample.json"; } >"$corpus/test_listing/ctest"
{ printf '\1'; cat "$root/tests/collect/data/gtest_report_sample.json"; } >"$corpus/test_listing/gtest_report"
printf '\2Running main() from gtest_main.cc\nSuite.\n  A\n  DISABLED_B\nInst/Param.\n  Case/0  # GetParam() = 4\nTyped/0.  # TypeParam = int\n  Case\n' \
  >"$corpus/test_listing/gtest_list"
printf '\0033/8' >"$corpus/test_listing/shard"
cat >"$corpus/mutant_manifest/mutants.jsonl" <<'JSON'
{"bug_type":"tensor","column":9,"end_line":13,"file":"src/softmax.cpp","function":"softmax","group":"dl","id":"m0001","line":12,"lines":[12,13],"offset":301,"operator":"swap-dims","original":"x.size(0)","patch":"m0001.patch","replacement":"x.size(1)"}

{"bug_type":"traditional","column":3,"end_line":4,"file":"a.cpp","function":"f","group":"traditional","id":"m0002","line":4,"lines":[4],"offset":20,"operator":"aor","original":"+","patch":"m0002.patch","replacement":"-"}
JSON

i=0
for f in 'ochiai' 'ef / sqrt((ef + nf) * (ef + ep))' 'ef^2 / (ep + nf)' 'max(ef - ep / (np + 1), 0, -1e-3)' \
         'log(1 + ef) * exp(-ep) + abs(nf - np)' 'min(ef × 2, ep ÷ 3) − -ef^2'; do
  printf '%s' "$f" >"$corpus/formula/$i"; i=$((i + 1))
done
echo "seed corpora in $corpus: $(find "$corpus" -type f | wc -l) files"
