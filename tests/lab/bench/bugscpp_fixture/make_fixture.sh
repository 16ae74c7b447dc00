#!/bin/sh
# Makes a BugsC++-style fixture (tests/lab/bench/bugscpp_reproduce_test.cpp,
# tests/lab/eval/bugscpp_import_test.cpp):
#   DIR/clones/ministr                 a git clone of a tiny C project (plain Makefile, a
#                                      test program that runs one named check)
#   DIR/bugscpp/taxonomy/ministr/      meta.json, patch/000N-*.patch, extra/000N/.dpp/test_list
# as BugsC++ lays out a project: each defect names its FIXED commit; 000N-buggy.patch
# turns it into the buggy version; 0001-common.patch is needed by both versions (without
# it the test program refuses to build); a case runs with its index in DPP_TEST_INDEX.
# Like BugsC++'s own harness, written for its Ubuntu 18.04 images, the common patch calls
# __gcov_flush (gone from GCC 11) and builds with -Werror code that a newer GCC warns about,
# and the test command runs `python` with cgi.escape (gone from Python 3.8): dlfl's host
# stand-ins must make all of them work.
#   defect 1: clamp returns lo above hi; case 2 (clamp_high) fails, as meta.json says.
#   defect 2: abs_val forgets to negate; case 4 (abs_neg) fails, but meta.json says case 1.
# With --crashing, a third defect whose listed case 3 (clamp_mid) is killed by SIGILL on
# both versions (its common patch makes the check trap), so it never writes coverage; the
# buggy patch changes a line without changing behaviour.
# With --omission, a fourth defect whose fix only inserts lines (a fault of omission):
# its buggy patch removes abs_val's negative branch (lines 12-13), so case 4 (abs_neg)
# fails and the fix's diff is a pure insertion after line 11.
# Usage: make_fixture.sh DIR [--crashing] [--omission]   (DIR must not exist)
set -eu
dir=$1
shift
crashing= omission=
for option in "$@"; do
  case $option in
    --crashing) crashing=$option ;;
    --omission) omission=$option ;;
    *) echo "make_fixture.sh: unknown option '$option'" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir/clones/ministr" "$dir/bugscpp/taxonomy/ministr/patch"
tax=$(cd "$dir/bugscpp/taxonomy/ministr" && pwd)
cd "$dir/clones/ministr"
git init -q -b main .
git config user.name "Fixture Author"
git config user.email fixture@example.org
git config commit.gpgsign false
git remote add origin https://github.com/fixture/ministr.git
n=0
commit() {
  n=$((n + 1))
  git add -A
  GIT_AUTHOR_DATE="2024-02-0${n}T12:00:00Z" GIT_COMMITTER_DATE="2024-02-0${n}T12:00:00Z" git commit -q -m "$1"
}

mkdir -p src tests
printf '%s\n' \
  'CC ?= cc' \
  'CFLAGS ?= -O2' \
  'build/check: src/mathx.c src/mathx.h tests/check.c' \
  '	mkdir -p build' \
  '	$(CC) $(CFLAGS) -Isrc -c src/mathx.c -o build/mathx.o' \
  '	$(CC) $(CFLAGS) -Isrc -c tests/check.c -o build/check.o' \
  '	$(CC) $(CFLAGS) build/mathx.o build/check.o -o build/check' \
  'clean:' \
  '	rm -rf build' > Makefile
cat > src/mathx.h <<'EOF'
#pragma once
int clamp(int x, int lo, int hi);
int abs_val(int x);
EOF
cat > src/mathx.c <<'EOF'
#include "mathx.h"

int clamp(int x, int lo, int hi) {
  if (x < lo)
    return lo;
  if (x > hi)
    return hi;
  return x;
}

int abs_val(int x) {
  if (x < 0)
    return -x;
  return x;
}
EOF
cat > tests/check.c <<'EOF'
#include <stdio.h>
#include <string.h>

#include "mathx.h"

#ifndef MINISTR_CHECKS
#error "build with -DMINISTR_CHECKS (the common patch adds it)"
#endif

int main(int argc, char** argv) {
  const char* name = argc > 1 ? argv[1] : "";
  int ok = 0;
  if (strcmp(name, "clamp_low") == 0) ok = clamp(-5, 0, 10) == 0;
  else if (strcmp(name, "clamp_high") == 0) ok = clamp(15, 0, 10) == 10;
  else if (strcmp(name, "clamp_mid") == 0) ok = clamp(5, 0, 10) == 5;
  else if (strcmp(name, "abs_neg") == 0) ok = abs_val(-3) == 3;
  else fprintf(stderr, "unknown check '%s'\n", name);
  return ok ? 0 : 1;
}
EOF
commit "ministr: clamp and abs_val with their checks"
fix1=$(git rev-parse HEAD)
echo "# ministr" > README.md
commit "README"
fix2=$(git rev-parse HEAD)

# A patch as BugsC++ ships them: `git format-patch` of a commit on top of the fix.
# The harness BugsC++'s common patches add: coverage flushed by __gcov_flush on a crash.
# Like BugsC++'s, it calls the flush only in the coverage build (-DDPP_ENABLE_GCOV), so the
# plain build links without libgcov.
harness_sed='s/^int main(int argc, char\*\* argv) {$/#include <signal.h>\n#ifdef DPP_ENABLE_GCOV\nextern void __gcov_flush(void);\n#endif\nstatic void dpp_flush(int s) {\n#ifdef DPP_ENABLE_GCOV\n  __gcov_flush();\n#endif\n  signal(s, SIG_DFL); raise(s); }\nint main(int argc, char** argv) {\n  int dpp_unused;\n  signal(SIGSEGV, dpp_flush);/'
patch_of() {  # COMMIT FILE: the change made by the commands on stdin, as a patch on COMMIT
  git checkout -q --detach "$1"
  sh
  git add -A
  git commit -q -m "$2"
  git format-patch -1 --stdout > "$tax/patch/$2"
  git checkout -q main
}
# What every common patch does: build the checks, with -Werror, and add the harness.
common_commands() {
  cat <<EOF
sed -i 's/^CFLAGS ?= -O2\$/CFLAGS ?= -O2\\noverride CFLAGS += -DMINISTR_CHECKS -Wall -Werror/' Makefile
sed -i "$harness_sed" tests/check.c
EOF
}
common_commands | patch_of "$fix1" 0001-common.patch
patch_of "$fix1" 0001-buggy.patch <<'EOF'
sed -i '7s/return hi;/return lo;/' src/mathx.c
EOF
common_commands | patch_of "$fix2" 0002-common.patch
patch_of "$fix2" 0002-buggy.patch <<'EOF'
sed -i '13s/return -x;/return x;/' src/mathx.c
EOF
defects="0001 0002"
crashing_defect=
if [ "$crashing" = --crashing ]; then
  { common_commands; echo "sed -i 's/ok = clamp(5, 0, 10) == 5;/__builtin_trap();/' tests/check.c"; } |
    patch_of "$fix1" 0003-common.patch
  patch_of "$fix1" 0003-buggy.patch <<'EOF'
sed -i '14s/return x;/return +x;/' src/mathx.c
EOF
  defects="$defects 0003"
  crashing_defect=",
    {\"id\": 3, \"hash\": \"$fix1\", \"num_cases\": 4, \"case\": [3], \"tags\": [\"crash\"],
     \"description\": \"clamp_mid is killed on both versions\"}"
fi
omission_defect=
if [ "$omission" = --omission ]; then
  common_commands | patch_of "$fix1" 0004-common.patch
  echo "sed -i '12,13d' src/mathx.c" | patch_of "$fix1" 0004-buggy.patch
  defects="$defects 0004"
  omission_defect=",
    {\"id\": 4, \"hash\": \"$fix1\", \"num_cases\": 4, \"case\": [4], \"tags\": [\"omission\"],
     \"description\": \"abs_val lacks its negative branch: the fix only inserts lines\"}"
fi
git branch -q -D scratch 2>/dev/null || true

for k in $defects; do
  mkdir -p "$tax/extra/$k/.dpp"
  printf '%s\n' clamp_low clamp_high clamp_mid abs_neg > "$tax/extra/$k/.dpp/test_list"
done
cat > "$tax/meta.json" <<EOF
{
  "info": {"url": "https://github.com/fixture/ministr.git", "short-desc": "A fixture", "vcs": "git"},
  "common": {
    "build": {"commands": [{"type": "docker", "lines": [
      "bash -c 'make clean'",
      "@DPP_COMPILATION_DB_TOOL@ make -j@DPP_PARALLEL_BUILD@"]}]},
    "build-coverage": {"commands": [{"type": "docker", "lines": [
      "bash -c 'make clean'",
      "bash -c 'make -j @DPP_PARALLEL_BUILD@ CFLAGS=\"--coverage -g -O0 -DDPP_ENABLE_GCOV\"'"]}]},
    "test-type": "ctest",
    "test": {"commands": [{"type": "docker", "lines": [
      "bash -c 'index=\$(cat DPP_TEST_INDEX); python -c \"import cgi; cgi.escape(chr(60))\" && /home/workspace/build/check \"\$(sed -n \${index}p .dpp/test_list)\"'"]}]},
    "test-coverage": {"commands": [{"type": "docker", "lines": [
      "bash -c 'index=\$(cat DPP_TEST_INDEX); python -c \"import cgi; cgi.escape(chr(60))\" && /home/workspace/build/check \"\$(sed -n \${index}p .dpp/test_list)\"'"]}]},
    "gcov": {"exclude": [], "commands": []}
  },
  "defects": [
    {"id": 1, "hash": "$fix1", "num_cases": 4, "case": [2], "tags": ["logical", "single-line"],
     "description": "clamp returns the lower bound above the upper one"},
    {"id": 2, "hash": "$fix2", "num_cases": 4, "case": [1], "tags": ["logical"],
     "description": "abs_val does not negate (meta.json names the wrong case)"}$crashing_defect$omission_defect
  ]
}
EOF
