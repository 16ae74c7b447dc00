#!/usr/bin/env bash
# The SBFL study on real bugs: DL framework bugs (Denchmark's C/C++ projects) against
# traditional ones (BugsC++), from the curated lists in bugsets/ (docs/realbugs.md).
#
#   scripts/realbugs.sh --repos CLONES --bugscpp BUGSCPP -o OUT [options]
#
# Each side is reproduced by `dlfl bugset reproduce` (resumable: run the same command
# again after a kill, or with more bugs), every kept bug's spectrum is ranked by each
# formula and technique and evaluated (line and function level, best/average/worst
# ties, EXAM over every ranked line and over the lines some test ran), the sides are
# compared with `dlfl compare`, and OUT/results.md is written. The figures add up the
# bugs this run kept and, for the listed bugs it did not run, the values their list
# entries record (--record writes a run's into the lists). Nothing is downloaded: the
# clones are the user's (owner+repo folders under CLONES).
#
# Options:
#   --repos DIR        clones of the projects, named owner+repo (or as bugset reproduce finds them)
#   --bugscpp DIR      a BugsC++ checkout (its taxonomy holds the patches the traditional side needs)
#   --lists DIR        the curated lists: DIR/dl.jsonl, DIR/traditional.jsonl, DIR/recipes/PROJECT.json
#                      and the recipes of single bugs, which their entries name (recipe_file),
#                      DIR/packages.json: the Debian packages each project's (or bug's) build and
#                      tests need, installed before its bugs are reproduced
#                      (default: bugsets/ of this repository)
#   --labels CSV       Jahan et al.'s labels.csv: the DL side compared by DL bug type as well
#   --side dl|traditional   only this side (default: both; a side whose list is empty is skipped)
#   --bug ID           only this bug (repeatable); the others stay as they are in OUT
#   --limit N          reproduce at most N more bugs per side this time
#   --retry-discarded  run the selected bugs an earlier run discarded again
#   --jobs N           bugs reproduced at once per side (default 1)
#   --build-jobs N     compile jobs and tests run at once per bug (default: cores / --jobs);
#                      1 runs one test at a time, so that tests that take minutes are not
#                      slowed past their time limit by each other
#   --no-reproduce     only rank, evaluate and report what OUT holds, the spectra the lists keep
#                      (LISTS/spectra/SIDE/BUG.dlfl.xz, ground truth derived again from the
#                      list by `dlfl bugset truth`), and what the lists record
#   --record           write the kept bugs of this run (failing tests, faulty lines, positions,
#                      values) into the lists, replacing their entries, and copy each one's
#                      compressed spectrum into LISTS/spectra/SIDE/ when it is at most
#                      DLFL_KEPT_SPECTRUM_BYTES (default 2 MiB)
#   --mbfl N           mutation-based localization of each kept bug with a budget of N mutants
#                      (bugset reproduce --mbfl): its kill matrix is kept beside the spectrum
#                      (and compressed in the lists with --record), and Ochiai's hybrid,
#                      Metallaxis and MUSE are ranked and evaluated as techniques
#   --mbfl-per-line N  with --mbfl: at most N mutants a line (default 5); fewer a line spread
#                      the budget over more lines
#   --mbfl-plain-build with --mbfl: also build each bug's buggy version without mutants by the
#                      same commands just before its schemata build, both without ccache, so
#                      that the records compare like with like (one more build a bug)
#   --mbfl-pytest-batch N  with --mbfl: up to N of a mutant's tests in one pytest process for
#                      the recipes whose tests run by test_command through pytest (what a
#                      batch cannot judge runs one test a process)
#   --mbfl-operators LIST  with --mbfl: the mutation operators (comma-separated, as
#                      kill-matrix --operators takes them; default all); a list entry's
#                      mbfl.operators makes its mutants again
#   --page DOC         also put OUT/results.md into DOC, between its lines `<!-- results.md -->`
#                      and `<!-- end of results.md -->` (docs/realbugs.md: the study's page)
#   -o DIR             output directory (reused to resume)
# On a Slurm cluster (docs/slurm.md; OUT, the clones, the lists and dlfl on a file system
# every node shares):
#   --slurm            submit instead of running here: per side a job array of --shards
#                      tasks (sbatch --array --requeue; task I reproduces shard I of the side's
#                      bugs into OUT/SIDE/shards/I, and a requeued task resumes it), then one
#                      job that runs after all of them succeeded (--dependency=afterok): it
#                      joins the shards (dlfl bugset join) and writes the page. Prints the job
#                      ids ("SIDE JOBID", "report JOBID") and where the page will be; the jobs'
#                      logs are in OUT/slurm/
#   --shards N         tasks per side (default 4)
#   --sbatch-args ARGS more sbatch options for every job (partition, time, account, CPUs), as
#                      shell words
#   --shard I/N        what a task runs: only shard I of N of the selected bugs, into
#                      OUT/SIDE/shards/I, and nothing else (the manifests are the submitter's)
#   --join N           what the last job runs: join OUT/SIDE/shards/0..N-1 into OUT/SIDE,
#                      then rank, evaluate and write the page as --no-reproduce does
# Environment: DLFL (the dlfl binary; default: build/tools/dlfl/dlfl, built if missing),
# DLFL_INSTALL_DEPS (what installs packages.json's packages, given --only PACKAGE...;
# default: scripts/install-deps.sh), DLFL_KEPT_SPECTRUM_BYTES (above).
#
# Ground truth: one rule for both sides (dlfl's fix_truth.h: the buggy version's changed
# executable lines, and for a change with none, a pure insertion above all, the
# executable lines next to it; Pearson et al., ICSE 2017). The whole-file convention (a
# file the fix only adds to counts whole) is evaluated beside it as the technique
# ochiai-whole-file, a sensitivity variant that leaves out a bug none of whose lines under
# that convention is in the spectrum (realbugs_report.py).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
repos="" bugscpp="" lists="$here/bugsets" labels="" out="" doc="" limit="" jobs=1 build_jobs="" reproduce=1 retry=0 record=0
mbfl="" mbfl_per_line="" mbfl_plain_build=0 mbfl_pytest_batch="" mbfl_operators=""
sides=(dl traditional)
bugs=()
slurm=0 shards=4 sbatch_args="" shard="" join=""
passed=()  # the arguments the Slurm jobs are given again: all but the Slurm ones
die() { echo "realbugs.sh: error: $*" >&2; exit 2; }
while (($#)); do
  case $1 in
    --slurm) slurm=1; shift; continue ;;
    --shards) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || die "--shards: a positive number, not '${2-}'"; shards=$2; shift 2; continue ;;
    --sbatch-args) sbatch_args=${2-}; shift 2; continue ;;
    --shard) [[ ${2-} =~ ^[0-9]+/[1-9][0-9]*$ ]] || die "--shard: I/N, not '${2-}'"; shard=$2; shift 2; continue ;;
    --join) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || die "--join: a positive number, not '${2-}'"; join=$2; shift 2; continue ;;
  esac
  case $1 in -o) ;;  # given again as an absolute path
    --side|--lists|--repos|--bugscpp|--labels|--bug|--limit|--jobs|--build-jobs|--mbfl|--mbfl-per-line|--mbfl-pytest-batch|--mbfl-operators) passed+=("$1" "${2-}") ;;
    *) passed+=("$1") ;;
  esac
  case $1 in
    --repos) repos=$2; shift 2 ;;
    --bugscpp) bugscpp=$2; shift 2 ;;
    --lists) lists=$2; shift 2 ;;
    --labels) labels=$2; shift 2 ;;
    --side) [[ $2 == dl || $2 == traditional ]] || die "--side: dl or traditional, not '$2'"; sides=("$2"); shift 2 ;;
    --bug) bugs+=("$2"); shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --build-jobs) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || die "--build-jobs: a positive number, not '${2-}'"; build_jobs=$2; shift 2 ;;
    --mbfl) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || die "--mbfl: a positive number of mutants, not '${2-}'"; mbfl=$2; shift 2 ;;
    --mbfl-per-line) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || die "--mbfl-per-line: a positive number of mutants, not '${2-}'"
      mbfl_per_line=$2; shift 2 ;;
    --mbfl-plain-build) mbfl_plain_build=1; shift ;;
    --mbfl-pytest-batch) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || die "--mbfl-pytest-batch: a positive number of tests, not '${2-}'"
      mbfl_pytest_batch=$2; shift 2 ;;
    --mbfl-operators) [[ -n ${2-} ]] || die "--mbfl-operators: a comma-separated list of operators"
      mbfl_operators=$2; shift 2 ;;
    --no-reproduce) reproduce=0; shift ;;
    --retry-discarded) retry=1; shift ;;
    --record) record=1; shift ;;
    --page) doc=$2; [[ -f $doc ]] || die "--page: no file '$doc'"; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ -n $out ]] || die "-o OUT is required"
((reproduce == 0)) || [[ -n $repos ]] || die "--repos DIR is required (the projects' clones)"
for side in "${sides[@]}"; do
  [[ -f $lists/$side.jsonl ]] || die "$lists/$side.jsonl: no such list"
done
if ((slurm)); then
  ((reproduce)) || die "--slurm submits the reproduction: not with --no-reproduce"
  # A task stopped by --limit leaves its shard unfinished, which the join refuses.
  [[ -z $limit ]] || die "--limit does not go with --slurm (a task would stop with its shard unfinished)"
  [[ -z $shard && -z $join ]] || die "--shard and --join are what the submitted jobs run, not for --slurm"
fi
[[ -z $shard || -z $join ]] || die "--shard and --join: one or the other"
if [[ -n $shard ]]; then
  ((${shard%/*} < ${shard#*/})) || die "--shard $shard: I must be below N"
  ((reproduce)) || die "--shard reproduces: not with --no-reproduce"
  ((${#sides[@]} == 1)) || die "--shard needs --side (a task reproduces one side)"
fi
[[ -z $join ]] || reproduce=0

dlfl=${DLFL:-$here/build/tools/dlfl/dlfl}
# A binary the caller names is used or refused, never replaced by a build of this tree.
[[ -z ${DLFL-} || -x $dlfl ]] || die "DLFL=$dlfl is not an executable"
if [[ ! -x $dlfl ]]; then
  "$here/scripts/install-deps.sh"
  cmake -S "$here" -B "$here/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$here/build" -j2 dlfl
fi
py=/usr/bin/python3
report="$here/scripts/realbugs_report.py"
recorder="$here/scripts/realbugs_record.py"
stats="$here/scripts/realbugs_stats.py"
kept_bytes=${DLFL_KEPT_SPECTRUM_BYTES:-2097152}
[[ $kept_bytes =~ ^[0-9]+$ ]] || die "DLFL_KEPT_SPECTRUM_BYTES: a number of bytes, not '$kept_bytes'"
mkdir -p "$out"
out=$(cd "$out" && pwd)
passed+=(-o "$out")

formulas=(ochiai dstar2 op2 tarantula)
# Technique -> `dlfl rank` options. Blocks rank a function's lines of identical coverage
# as one; FLITSR (Callaghan and Fischer, ISSTA 2023) lets each fault of a multi-line fix
# rise; PRFL (Zhang et al., ISSTA 2017) needs a call graph, which the gcov backend does
# not make: it runs where the spectrum's folder holds BUG.callgraph.tsv.
techniques=(line block flitsr prfl)
rank_options() {
  case $1 in
    line) ;;
    block) echo "--granularity block" ;;
    flitsr) echo "--multi-fault flitsr" ;;
    prfl) echo "--propagate prfl --call-graph $2" ;;
  esac
}

# One side's manifest: the list itself (it has the manifest's shape) for the DL side; the
# BugsC++ import, restricted to the listed defects, for the traditional side (the patches
# live in the user's BugsC++ checkout, not in this repository).
manifest_of() {
  local side=$1 manifest="$out/$1/manifest.jsonl"
  mkdir -p "$out/$side"
  if [[ $side == traditional ]]; then
    [[ -n $bugscpp ]] || die "--bugscpp DIR is required for the traditional side"
    "$dlfl" bugset import bugscpp "$bugscpp" -o "$out/$side/bugscpp-all.jsonl" 2>"$out/$side/import.log" ||
      die "importing $bugscpp failed: $(tail -1 "$out/$side/import.log")"
    "$py" "$report" select "$lists/$side.jsonl" "$out/$side/bugscpp-all.jsonl" "$manifest"
  else
    "$py" "$report" select "$lists/$side.jsonl" "$lists/$side.jsonl" "$manifest"
  fi
  echo "$manifest"
}

# A script that runs this one again with `passed` and `more` arguments, for sbatch:
# write_job FILE WHAT ARG... (an argument '$TASK' becomes the task's shard index).
write_job() {
  local file=$1 what=$2 arg
  shift 2
  {
    echo '#!/usr/bin/env bash'
    echo "# $what, written by scripts/realbugs.sh --slurm."
    printf 'export DLFL=%q\n' "$dlfl"
    [[ -z ${DLFL_INSTALL_DEPS-} ]] || printf 'export DLFL_INSTALL_DEPS=%q\n' "$DLFL_INSTALL_DEPS"
    printf 'exec bash %q' "$here/scripts/realbugs.sh"
    for arg in "${passed[@]}" "$@"; do
      # shellcheck disable=SC2016  # expanded by the task
      [[ $arg == '$TASK'* ]] && printf ' "$SLURM_ARRAY_TASK_ID%s"' "${arg#\$TASK}" || printf ' %q' "$arg"
    done
    echo
  } >"$file.tmp"
  mv "$file.tmp" "$file"
}

if ((slurm)); then
  command -v sbatch >/dev/null || die "sbatch is not on PATH: --slurm submits to a Slurm cluster"
  dlfl=$(cd "$(dirname "$dlfl")" && pwd)/$(basename "$dlfl")  # the jobs run elsewhere
  eval "extra=($sbatch_args)" || die "--sbatch-args: not shell words: $sbatch_args"
  mkdir -p "$out/slurm"
  after=""
  for side in "${sides[@]}"; do
    [[ -n $("$py" "$report" ids "$lists/$side.jsonl") ]] || { echo "realbugs.sh: $side: the list is empty, skipped" >&2; continue; }
    manifest_of "$side" >/dev/null  # once, here: the tasks read it
    write_job "$out/slurm/reproduce-$side.sh" "Task SLURM_ARRAY_TASK_ID of the $side side's array" \
      --side "$side" --shard "\$TASK/$shards"
    # --requeue: a task preempted or on a failed node runs again and resumes its shard.
    job=$(sbatch --parsable --array="0-$((shards - 1))" --requeue --open-mode=append --job-name="dlfl-$side" \
      --output="$out/slurm/$side-%A_%a.log" "${extra[@]}" "$out/slurm/reproduce-$side.sh") ||
      die "sbatch did not take the $side side's array"
    job=${job%%;*}
    echo "$side $job"
    after+=":$job"
  done
  [[ -n $after ]] || die "no side has listed bugs: nothing submitted"
  write_job "$out/slurm/report.sh" "The join of the shards and the page" --join "$shards"
  job=$(sbatch --parsable --dependency="afterok$after" --kill-on-invalid-dep=yes --job-name=dlfl-report \
    --output="$out/slurm/report-%j.log" "${extra[@]}" "$out/slurm/report.sh") || die "sbatch did not take the report job"
  job=${job%%;*}
  echo "report $job"
  arrays=${after#:}
  echo "realbugs.sh: submitted $shards tasks per side (jobs ${arrays//:/, }) and the report (job $job, after them);" \
    "the page will be $out/results.md; watch with: squeue -j ${arrays//:/,},$job; logs in $out/slurm/" >&2
  exit 0
fi

for side in "${sides[@]}"; do
  ids=$("$py" "$report" ids "$lists/$side.jsonl")
  [[ -n $ids ]] || { echo "realbugs.sh: $side: the list is empty, skipped" >&2; continue; }
  mkdir -p "$out/$side"
  if [[ -n $join ]]; then
    dirs=()
    for i in $(seq 0 $((join - 1))); do [[ -d $out/$side/shards/$i ]] && dirs+=("$out/$side/shards/$i"); done
    ((${#dirs[@]})) || die "$side: no shard ran: $out/$side/shards/ holds none of 0..$((join - 1))"
    "$dlfl" bugset join "${dirs[@]}" -o "$out/$side" >/dev/null
  fi
  if ((reproduce)); then
    manifest=$out/$side/manifest.jsonl
    if [[ -z $shard ]]; then
      manifest=$(manifest_of "$side")
    elif [[ ! -f $manifest ]]; then
      die "$manifest: missing (a --shard task reads the manifest realbugs.sh --slurm wrote)"
    fi
    args=()
    if ((${#bugs[@]})); then
      for id in "${bugs[@]}"; do grep -qxF "$id" <<<"$ids" && args+=(--bug "$id"); done
      ((${#args[@]})) || continue
    else
      while read -r id; do args+=(--bug "$id"); done <<<"$ids"
    fi
    # The recipes of this run's projects only: bugset reproduce refuses one for a project
    # none of its bugs is of (the lists' recipes serve both sides).
    selected=$(printf '%s\n' "${args[@]}" | grep -vxF -- --bug)
    for recipe in "$lists"/recipes/*.json; do
      [[ -e $recipe ]] || continue
      project=$(basename "$recipe" .json)
      awk -v p="$project#" 'index($0, p) == 1 { found = 1 } END { exit !found }' <<<"$selected" &&
        args+=(--recipe "$project=$recipe")
    done
    # A bug's own recipe (its entry's recipe_file, in the lists' recipes/), before its project's.
    own=$("$py" "$report" recipes "$lists/$side.jsonl") || exit 2
    while IFS=$'\t' read -r id file; do
      [[ -n $id ]] && grep -qxF -- "$id" <<<"$selected" || continue
      [[ -f $lists/recipes/$file ]] || die "$lists/$side.jsonl: $id: no recipe $lists/recipes/$file"
      args+=(--recipe "$id=$lists/recipes/$file")
    done <<<"$own"
    # The packages this run's projects and bugs need (a name is checked before apt sees it).
    mapfile -t selected_ids <<<"$selected"
    needed=$("$py" "$report" packages "$lists/packages.json" "${selected_ids[@]}") || exit 2
    if [[ -n $needed ]]; then
      # shellcheck disable=SC2086  # one package a word
      "${DLFL_INSTALL_DEPS:-$here/scripts/install-deps.sh}" --only $needed ||
        die "installing the packages $lists/packages.json names for the $side side failed: $(tr '\n' ' ' <<<"$needed")"
    fi
    [[ -n $limit ]] && args+=(--limit "$limit")
    ((retry)) && args+=(--retry-discarded)
    [[ -n $build_jobs ]] && args+=(--build-jobs "$build_jobs")
    [[ -n $mbfl ]] && args+=(--mbfl "$mbfl")
    [[ -n $mbfl_per_line ]] && args+=(--mbfl-per-line "$mbfl_per_line")
    ((mbfl_plain_build)) && args+=(--mbfl-plain-build)
    [[ -n $mbfl_pytest_batch ]] && args+=(--mbfl-pytest-batch "$mbfl_pytest_batch")
    [[ -n $mbfl_operators ]] && args+=(--mbfl-operators "$mbfl_operators")
    for f in "${formulas[@]}"; do args+=(-f "$f"); done
    dest=$out/$side
    if [[ -n $shard ]]; then
      dest=$out/$side/shards/${shard%/*}
      args+=(--shard "$shard")
    fi
    # A manifest is data: BugsC++ defects take their commands from the checkout itself.
    [[ $side == traditional ]] && args+=(--bugscpp "$bugscpp")
    echo "realbugs.sh: $side: reproducing $(grep -c . <<<"$selected") of the $(grep -c . <<<"$ids") listed bugs" \
      "${shard:+(their shard $shard) }into $dest" >&2
    "$dlfl" bugset reproduce "$manifest" --repos "$repos" -o "$dest" -j "$jobs" "${args[@]}"
  fi
  [[ -z $shard ]] || continue  # a task reproduces its shard only

  # The spectra the lists keep of bugs OUT has none of: their ground truth is derived
  # again from the list, so a rule applies to them without building them again.
  spectra="$out/$side/spectra"
  for packed in "$lists/spectra/$side"/*.dlfl.xz; do
    [[ -e $packed && $packed != *.kill-matrix.dlfl.xz ]] || continue
    bug=$(basename "$packed" .dlfl.xz)
    grep -qxF -- "$bug" <<<"$ids" && [[ ! -f $spectra/$bug.dlfl ]] || continue
    # Its entry alone (the list's other entries may name their bug only); an entry without
    # the fix's files keeps its recorded values, as one without a spectrum does.
    entry=$(awk -v id="\"id\": \"$bug\"" 'index($0, id)' "$lists/$side.jsonl")
    [[ $entry == *'"files"'* ]] || continue
    mkdir -p "$spectra"
    printf '%s\n' "$entry" > "$spectra/$bug.entry.jsonl"
    xz -dc -- "$packed" > "$spectra/$bug.dlfl.tmp" || die "$packed: not an xz-compressed spectrum"
    for rule in adjacent-lines whole-file; do
      suffix=.truth; [[ $rule == adjacent-lines ]] || suffix=".$rule.truth"
      said=$("$dlfl" bugset truth "$spectra/$bug.entry.jsonl" --bug "$bug" --spectrum "$spectra/$bug.dlfl.tmp" \
        --rule "$rule" -o "$spectra/$bug$suffix" 2>&1) ||
        die "$packed: deriving its $rule ground truth from $lists/$side.jsonl failed: ${said##*$'\n'}"
    done
    rm -f "$spectra/$bug.entry.jsonl"
    kills="$lists/spectra/$side/$bug.kill-matrix.dlfl.xz"
    if [[ -f $kills ]]; then
      xz -dc -- "$kills" > "$spectra/$bug.kill-matrix.dlfl.tmp" || die "$kills: not an xz-compressed kill matrix"
      mv "$spectra/$bug.kill-matrix.dlfl.tmp" "$spectra/$bug.kill-matrix.dlfl"
    fi
    mv "$spectra/$bug.dlfl.tmp" "$spectra/$bug.dlfl"
  done

  # Rank and evaluate every kept spectrum; a ranking newer than its spectrum is reused.
  [[ -d $spectra ]] || continue
  batch="$out/$side/eval-batch.csv"
  echo "bug,ranking,truth,technique" > "$batch.tmp"
  for spectrum in "$spectra"/*.dlfl; do
    [[ -e $spectrum && $spectrum != *.kill-matrix.dlfl ]] || continue
    bug=$(basename "$spectrum" .dlfl)
    truth="$spectra/$bug.truth"
    dir="$out/$side/rankings/$bug"
    mkdir -p "$dir"
    for t in "${techniques[@]}"; do
      graph="$spectra/$bug.callgraph.tsv"
      [[ $t == prfl && ! -f $graph ]] && continue
      # The four formulas plain; the techniques on Ochiai, the formula they were tuned on.
      selected=("${formulas[@]}"); [[ $t == line ]] || selected=(ochiai)
      for f in "${selected[@]}"; do
        ranking="$dir/$f-$t.csv"
        if [[ ! $ranking -nt $spectrum ]]; then
          # shellcheck disable=SC2046  # the options are words
          "$dlfl" rank "$spectrum" -f "$f" $(rank_options "$t" "$graph") --format csv -o "$ranking"
        fi
        name=$f; [[ $t == line ]] || name="$f-$t"
        echo "$bug,$ranking,$truth,$name" >> "$batch.tmp"
      done
    done
    # Mutation-based localization where the bug has a kill matrix (--mbfl): Ochiai's
    # order with its ties broken by Metallaxis, Metallaxis on Ochiai, and MUSE.
    kills="$spectra/$bug.kill-matrix.dlfl"
    if [[ -f $kills ]]; then
      for t in hybrid metallaxis muse; do
        ranking="$dir/ochiai-$t.csv"
        [[ $ranking -nt $spectrum && $ranking -nt $kills ]] ||
          "$dlfl" rank "$spectrum" -f ochiai --mutation "$t" --kill-matrix "$kills" --format csv -o "$ranking"
        name="ochiai-$t"; [[ $t == muse ]] && name=muse
        echo "$bug,$ranking,$truth,$name" >> "$batch.tmp"
      done
      [[ $kills.xz -nt $kills ]] ||
        { xz -6 -T1 -c -- "$kills" > "$kills.xz.tmp" && mv "$kills.xz.tmp" "$kills.xz"; }
    fi
    # The sensitivity variant: Ochiai's ranking against the whole-file convention.
    [[ -f $spectra/$bug.whole-file.truth ]] &&
      echo "$bug,$dir/ochiai-line.csv,$spectra/$bug.whole-file.truth,ochiai-whole-file" >> "$batch.tmp"
    # The results store keeps each spectrum compressed too (what --record copies).
    if [[ ! $spectrum.xz -nt $spectrum ]]; then
      xz -6 -T1 -c -- "$spectrum" > "$spectrum.xz.tmp" && mv "$spectrum.xz.tmp" "$spectrum.xz"
    fi
  done
  mv "$batch.tmp" "$batch"
  "$dlfl" eval --batch "$batch" --level all --ties all --format csv -o "$out/$side/eval.csv"
  "$dlfl" eval --batch "$batch" --level all --ties all --exam-base executed --format csv -o "$out/$side/eval-executed.csv"
done

[[ -z $shard ]] || exit 0
# What the figures and the comparison add up: each side's rows of this run and the
# lists' records of the listed bugs it did not run.
for side in "${sides[@]}"; do
  [[ -d $out/$side ]] || continue
  "$py" "$report" table "$out" "$side" "$lists" > "$out/$side/eval-study.csv.tmp" ||
    { rm -f "$out/$side/eval-study.csv.tmp"; exit 2; }
  mv "$out/$side/eval-study.csv.tmp" "$out/$side/eval-study.csv"
done

# DL against traditional (and by DL bug type where labels join), then the page.
tables=()
for side in dl traditional; do
  table="$out/$side/eval-study.csv"
  [[ -f $table ]] && (($(wc -l <"$table") > 1)) && tables+=(-i "$table" -g "$side")
done
compare_args=(--filter level=line --filter ties=average -m mrr -m map -m first_rank)
# The page reports the comparisons of this run only, never an earlier run's.
rm -f "$out/compare.md" "$out/compare-by-type.md" "$out/compare-real-lines.md" "$out/compare-by-kind.md" \
  "$out/compare-by-kind-second.md" "$out/stats.md"
if ((${#tables[@]} == 8)); then  # both sides
  "$dlfl" compare "${tables[@]}" "${compare_args[@]}" -o "$out/compare.md"
  # The bugs whose whole-file truth is lines only, where both conventions nearly agree.
  subset=()
  for side in dl traditional; do
    "$py" "$stats" real-lines "$out" "$side" "$lists" > "$out/$side/eval-real-lines.csv" || exit 2
    [[ -s $out/$side/eval-real-lines.csv ]] && subset+=(-i "$out/$side/eval-real-lines.csv" -g "$side")
  done
  ((${#subset[@]} == 8)) && "$dlfl" compare "${subset[@]}" "${compare_args[@]}" -o "$out/compare-real-lines.md"
  # Within the DL side: the bugs of DL logic against the generic ones (the lists' bug_kind),
  # by each annotator's labels.
  for annotator in "" second; do
    kinds=$out/dl/kinds${annotator:+-$annotator}.csv
    "$py" "$stats" kinds "$lists" ${annotator:+"$annotator"} > "$kinds" || exit 2
    if (($(wc -l <"$kinds") > 1)); then
      "$dlfl" compare -i "$out/dl/eval-study.csv" -g dl "${compare_args[@]}" --labels "$kinds" --by bug_kind \
        --label-key id -o "$out/compare-by-kind${annotator:+-$annotator}.md" ||
        echo "realbugs.sh: no ${annotator:-first} annotator's bug kinds joined the DL bugs" >&2
    fi
  done
  "$py" "$stats" section "$out" "$lists" > "$out/stats.md" || exit 2
  if [[ -n $labels ]]; then
    "$dlfl" compare -i "$out/dl/eval-study.csv" -g dl "${compare_args[@]}" --labels "$labels" --by dl_bug_type \
      --label-key id -o "$out/compare-by-type.md" || echo "realbugs.sh: no labels joined the DL bugs" >&2
  fi
fi
"$py" "$report" page "$out" "$lists" > "$out/results.md.tmp"
mv "$out/results.md.tmp" "$out/results.md"
[[ -z $doc ]] || "$py" "$stats" embed "$out/results.md" "$doc" || exit 2
if ((record)); then
  for side in "${sides[@]}"; do
    [[ -f $out/$side/manifest.jsonl ]] || continue
    "$py" "$recorder" record "$out" "$side" "$lists/$side.jsonl"
    # Each kept bug's compressed spectrum, where it is small enough for the repository.
    while read -r bug; do
      packed="$out/$side/spectra/$bug.dlfl.xz"
      [[ -n $bug && -f $packed ]] || continue
      size=$(stat -c %s -- "$packed")
      if ((size <= kept_bytes)); then
        mkdir -p "$lists/spectra/$side"
        cp -- "$packed" "$lists/spectra/$side/$bug.dlfl.xz.tmp" && mv -- "$lists/spectra/$side/$bug.dlfl.xz.tmp" "$lists/spectra/$side/$bug.dlfl.xz"
        kills="$out/$side/spectra/$bug.kill-matrix.dlfl.xz"
        if [[ -f $kills ]]; then
          cp -- "$kills" "$lists/spectra/$side/$bug.kill-matrix.dlfl.xz.tmp" &&
            mv -- "$lists/spectra/$side/$bug.kill-matrix.dlfl.xz.tmp" "$lists/spectra/$side/$bug.kill-matrix.dlfl.xz"
        fi
      else
        echo "realbugs.sh: $bug: its compressed spectrum ($size bytes) is over $kept_bytes bytes, not copied into $lists/spectra" >&2
      fi
    done < <("$py" "$recorder" list "$out" "$side" | "$py" -c 'import json, sys
for line in sys.stdin: print(json.loads(line)["id"])')
  done
fi
echo "realbugs.sh: $out/results.md" >&2
