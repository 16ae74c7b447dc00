#!/usr/bin/env python3
"""The unpack half of scripts/gpu-check.sh: collects the GPU run's snapshots with `dlfl
collect`, ranks them with `dlfl rank` and prints one line per verdict (exit 1 when one fails).

  verdict.py --dlfl DLFL PACK OUT       the four verdicts
  verdict.py replay PACK SCENARIO       the expected coverage of correct|fault|trap as a
                                        script for the snapshot replayer (offline tests)

The expectation is the `//@` markers of PACK/plain/kernels.cu: the tests reaching each
probed line (words with a dot), FAULT on the seeded fault's line, PARTIAL on lines only
some threads of a launch reach.
"""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

SUBJECT = "kernels.cu"
TRAP_TEST = "DeviceTrap.ClampThenScatterToNull"
ZERO_LAUNCH = ("Normalize.ZeroNormLaunchesNothing", "normalize_kernel")
LOST_MESSAGE = "dlfl_rt: device coverage lost"
KERNELS = ["clamp", "count_above", "window_sum", "normalize", "scatter"]


def read_markers(path):
    tests, fault, partial = {}, set(), set()
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            at = text.find("//@")
            if at < 0 or text.lstrip().startswith("//"):  # a comment line only talks about markers
                continue
            words = text[at + 3:].split()
            tests[number] = {w for w in words if "." in w}
            if "FAULT" in words:
                fault.add(number)
            if "PARTIAL" in words:
                partial.add(number)
    return tests, fault, partial


class ProbeMap:
    def __init__(self, path):
        self.path, self.files, self.functions, self.sites = path, [], [], []
        self.count, self.id = 0, "0"
        with open(path, encoding="utf-8") as f:
            for text in f:
                field = text.rstrip("\n").split("\t")
                if field[0] == "probes":
                    self.count = int(field[1])
                elif field[0] == "id":
                    self.id = field[1]
                elif field[0] == "file":
                    self.files.append(field[2])
                elif field[0] == "function":
                    self.functions.append(field[2])
                elif field[0] == "site":
                    probe, file, line, _, function = (int(x) for x in field[1:6])
                    self.sites.append((probe, self.files[file], line, self.functions[function], field[6]))

    def subject_sites(self):
        return [s for s in self.sites if s[1] == SUBJECT]

    def device_lines(self):
        return {s[2] for s in self.subject_sites() if s[4] != "h"}

    def lines_of(self, function):
        return {s[2] for s in self.subject_sites() if function in s[3]}

    def write_host_only(self, path):
        """The same map without device and host-device sites: what host-only coverage sees."""
        with open(self.path, encoding="utf-8") as f, open(path, "w", encoding="utf-8") as out:
            for text in f:
                field = text.rstrip("\n").split("\t")
                if field[0] == "site" and field[6] != "h":
                    continue
                out.write(text)


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(" ".join(command) + ": " + (done.stderr.strip() or done.stdout.strip()))
    return done.stdout


def collect(dlfl, snapshot, probe_map, work, name):
    """{test: (failed, set of covered kernels.cu lines)} and the spectrum file."""
    gzoltar, spectrum = os.path.join(work, name + ".gz"), os.path.join(work, name + ".dlfl")
    # As the one shard of one, a run without a failing test (the correct run) is written too.
    run([dlfl, "collect", "--runtime", "--snapshot", snapshot, "--probe-map", probe_map, "--gzoltar", gzoltar,
         "--shard", "0/1", "-o", spectrum, "-q"])
    with open(os.path.join(gzoltar, "spectra.csv"), encoding="utf-8") as f:
        names = f.read().splitlines()[1:]
    lines = []
    for name_ in names:
        m = re.search(r":(\d+)$", name_)
        lines.append(int(m.group(1)) if m and SUBJECT in name_ else None)
    with open(os.path.join(gzoltar, "tests.csv"), encoding="utf-8", newline="") as f:
        tests = [(row[0], row[1] == "FAIL") for row in list(csv.reader(f))[1:]]
    result = {}
    with open(os.path.join(gzoltar, "matrix.txt"), encoding="utf-8") as f:
        for (test, failed), row in zip(tests, f):
            bits = row.split()[:-1]
            result[test] = (failed, {lines[i] for i, b in enumerate(bits) if b != "0" and lines[i] is not None})
    return result, spectrum


def rank(dlfl, spectrum):
    """[(rank, best, worst, line or None)] in ranking order (Ochiai, average ties)."""
    text = run([dlfl, "rank", spectrum, "-f", "ochiai", "--format", "csv", "-n", "0"])
    rows = []
    for row in csv.DictReader(text.splitlines()):
        line = int(row["line"]) if row["line"] and row["file"].endswith(SUBJECT) else None
        rows.append((float(row["rank"]), int(row["rank_best"]), int(row["rank_worst"]), line, row["element"]))
    return rows


def verdict_coverage(covered, expected, device, partial, zero_lines):
    tests = sorted({t for ts in expected.values() for t in ts} - {TRAP_TEST})
    wrong = []
    for test in tests:
        want = {line for line, ts in expected.items() if test in ts}
        got = covered.get(test, (False, None))[1]
        if got is None:
            wrong.append(f"{test} not in the snapshot")
            continue
        extra, missing = sorted(got - want), sorted(want - got)
        if extra or missing:
            wrong.append(f"{test} +{extra} -{missing}")
    zero_test = ZERO_LAUNCH[0]
    zero_hits = sorted(covered.get(zero_test, (False, set()))[1] & zero_lines)
    partial_ok = all(any(line in covered.get(t, (False, set()))[1] for t in expected[line]) for line in partial)
    what = (f"{len(tests)} tests x {len(device)} device and {len(set(expected) - device)} host lines; lines "
            f"only some threads reach "
            f"{sorted(partial)} {'recorded' if partial_ok else 'MISSING'}; {zero_test} launches "
            f"{ZERO_LAUNCH[1]} zero times: {len(zero_hits)} of its {len(zero_lines)} lines recorded")
    if wrong:
        return False, what + "; wrong (+extra -missing lines): " + "; ".join(wrong[:4])
    return True, what


def verdict_fault(dlfl, pack, out, work, probe_map, expected, fault):
    if not fault:
        return False, "no FAULT marker in the subject"
    covered, spectrum = collect(dlfl, os.path.join(out, "fault.rt"), probe_map.path, work, "fault")
    want_failing = sorted({t for line in fault for t in expected[line]})
    failing = sorted(t for t, (failed, _) in covered.items() if failed)
    rows = rank(dlfl, spectrum)
    at = [r for r in rows if r[3] in fault]
    host_map = os.path.join(work, "host-only.map")
    probe_map.write_host_only(host_map)
    _, host_spectrum = collect(dlfl, os.path.join(out, "fault.rt"), host_map, work, "host")
    host_rows = rank(dlfl, host_spectrum)
    host_at = [r for r in host_rows if r[3] in fault]
    line = sorted(fault)[0]
    if at:
        r = at[0]
        device = f"{SUBJECT}:{line} ranked {r[0]:g} ({r[1]}-{r[2]}) of {len(rows)} with device coverage"
    else:
        device = f"{SUBJECT}:{line} not ranked with device coverage"
    host = (f"host-only coverage (device sites filtered out) ranks it {host_at[0][0]:g} of {len(host_rows)}"
            if host_at else f"host-only coverage (device sites filtered out, {len(host_rows)} lines) cannot rank "
            f"it: its top is {host_rows[0][4] if host_rows else 'nothing'}")
    ok = bool(at) and at[0][1] == 1 and (not host_at or host_at[0][0] > at[0][0]) and failing == want_failing
    failing_text = f"failing: {', '.join(failing) or 'none'}" + (
        "" if failing == want_failing else f" (expected: {', '.join(want_failing)})")
    return ok, f"{device}; {host}; {failing_text}"


def read_summary(out):
    values = {}
    path = os.path.join(out, "summary.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for text in f:
                key, _, value = text.rstrip("\n").partition("=")
                values[key] = value
    return values


def verdict_overhead(out, summary):
    times = {}
    path = os.path.join(out, "bench.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for text in f:
                w = text.split()
                if len(w) == 4 and w[1] == "kernel":
                    times.setdefault((w[0], w[2]), []).append(float(w[3]))
    missing = [k for k in KERNELS if ("plain", k) not in times or ("instr", k) not in times]
    probes = int(summary.get("probe_count", "0") or 0)
    units = int(summary.get("cuda_units", "1") or 1)
    memory = f"probes use {probes * units} bytes of device memory ({units} CUDA unit x a {probes}-byte map)"
    if missing:
        return False, f"no timing for {', '.join(missing)}; {memory}"
    median = {key: statistics.median(v) for key, v in times.items()}
    ratios = {k: median[("instr", k)] / median[("plain", k)] for k in KERNELS}
    total = sum(median[("instr", k)] for k in KERNELS) / sum(median[("plain", k)] for k in KERNELS)
    rounds = min(len(v) for v in times.values())
    each = ", ".join(f"{k} {ratios[k]:.2f}" for k in KERNELS)
    return True, (f"instrumented/plain kernel time {total:.2f}x (medians of {rounds} alternating runs, "
                  f"cudaEvents: {each}); {memory}")


def verdict_trap(dlfl, out, work, probe_map, expected, device):
    covered, _ = collect(dlfl, os.path.join(out, "trap.rt"), probe_map.path, work, "trap")
    if TRAP_TEST not in covered:
        return False, f"{TRAP_TEST} not in the trap snapshot"
    failed, got = covered[TRAP_TEST]
    log = ""
    if os.path.exists(os.path.join(out, "trap.log")):
        with open(os.path.join(out, "trap.log"), encoding="utf-8", errors="replace") as f:
            log = f.read()
    if not failed:
        return False, f"{TRAP_TEST} passed: no trap happened"
    want = {line for line, ts in expected.items() if TRAP_TEST in ts}
    want_device, want_host = want & device, want - device
    kept, lost = sorted(got & want_device), sorted(want_device - got)
    host_kept = len(got & want_host)
    said = next((text.strip() for text in log.splitlines() if LOST_MESSAGE in text), "")
    what = (f"{len(kept)} of {len(want_device)} device lines reached before the trap kept, host lines "
            f"{host_kept} of {len(want_host)}")
    if not lost:
        return True, what
    if said:
        return True, f"{what}; lost {lost}, and the runtime said so: \"{said[:160]}\""
    return False, f"{what}; lost {lost} without a word from the runtime"


def verdicts(args):
    pack, out = os.path.abspath(args.pack), os.path.abspath(args.out)
    expected, fault, partial = read_markers(os.path.join(pack, "plain", SUBJECT))
    probe_map = ProbeMap(os.path.join(pack, "instr", "dlfl-probes.map"))
    device = probe_map.device_lines()
    summary = read_summary(out)
    results = []
    with tempfile.TemporaryDirectory(prefix="gpu-check-verdict.") as work:
        checks = [
            ("device probes record per test the device lines its kernels execute",
             lambda: verdict_coverage(collect(args.dlfl, os.path.join(out, "correct.rt"), probe_map.path, work,
                                              "correct")[0], expected, device, partial,
                                      probe_map.lines_of(ZERO_LAUNCH[1]))),
            ("the GPU-only fault is localized by device coverage",
             lambda: verdict_fault(args.dlfl, pack, out, work, probe_map, expected, fault)),
            ("overhead of the device probes", lambda: verdict_overhead(out, summary)),
            ("a kernel that traps", lambda: verdict_trap(args.dlfl, out, work, probe_map, expected, device)),
        ]
        for number, (title, check) in enumerate(checks, 1):
            try:
                ok, what = check()
            except (RuntimeError, OSError, ValueError) as e:
                ok, what = False, str(e)
            results.append(ok)
            print(f"verdict {number} {'PASS' if ok else 'FAIL'}: {title}: {what}")
    if summary.get("gpu"):
        print(f"(GPU: {summary['gpu']}; {summary.get('nvcc', '')}; arch {summary.get('arch', '')})")
    return 0 if all(results) else 1


def replay(args):
    """What each scenario's snapshot holds if the device probes work as the markers say."""
    pack = os.path.abspath(args.pack)
    expected, fault, _ = read_markers(os.path.join(pack, "plain", SUBJECT))
    probe_map = ProbeMap(os.path.join(pack, "instr", "dlfl-probes.map"))
    device = probe_map.device_lines()
    probes_of = {}
    for probe, file, line, _, _ in probe_map.subject_sites():
        probes_of.setdefault(line, set()).add(probe)
    failing = {t for line in fault for t in expected[line]}
    print(f"probes {probe_map.count} {probe_map.id}")
    tests = sorted({t for ts in expected.values() for t in ts})
    for test in tests:
        if (test == TRAP_TEST) != (args.scenario == "trap"):
            continue
        lines = {line for line, ts in expected.items() if test in ts}
        if args.scenario == "trap":
            lines -= device  # what the runtime keeps after a trap: the device map is unreadable
        print(f"begin {test}")
        for line in sorted(lines):
            for probe in sorted(probes_of.get(line, ())):
                print(f"hit {probe}")
        fails = test == TRAP_TEST or (args.scenario == "fault" and test in failing)
        print(f"end {1 if fails else 0}")
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "replay":
        parser = argparse.ArgumentParser(prog="verdict.py replay")
        parser.add_argument("pack")
        parser.add_argument("scenario", choices=["correct", "fault", "trap"])
        return replay(parser.parse_args(sys.argv[2:]))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dlfl", default="dlfl")
    parser.add_argument("pack")
    parser.add_argument("out")
    return verdicts(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
