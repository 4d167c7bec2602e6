#!/usr/bin/env python3
"""The speed figures of `make bench`, measured side by side with a baseline build in the same run.

Usage: scripts/bench-compare.py BASELINE_BIN [CANDIDATE_BIN] [--runs N] [--only TEXT]

Each figure's command runs with the baseline and the candidate binary alternately, N times each
(default 3), on the same machine in the same minutes, so a regression or a gain shows as a ratio
rather than as two numbers taken on different days under different loads. Prints, per figure,
the median wall time of each, the ratio (candidate / baseline; below 1 is faster) and the goal.
Build a baseline of an earlier commit with, for example:

    git worktree add ../baseline HEAD~1 && make -C ../baseline build
    scripts/bench-compare.py ../baseline/.build/release/signin-spec

The fuzzer's two rates (oracle transitions and client sessions per CPU second, goals 1,000,000
and 50,000) are read from `bench --fuzzer` on the 2026 model, each binary's own measurement,
median of the runs; their ratio is candidate / baseline (above 1 is faster).

Exit status: 0; 2 when a command fails on either binary (its output is shown).
"""

import argparse
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

# (figure, arguments, goal in seconds or None, exit codes that are not failures)
FIGURES = [
    ("prove (3 shipped models)", ["prove"], 1.0, {0}),
    ("verify 2026 (both engines)", ["verify", "models/2026-all-platforms.yaml"], 5.0, {0}),
    ("verify 2026 + voice MFA", ["verify", "examples/2026-voice-mfa.yaml"], None, {0, 1}),
    ("verify 2026, explicit, 1 job", ["verify", "models/2026-all-platforms.yaml", "--engines", "explicit",
                                      "--jobs", "1"], None, {0}),
    ("diff 2026 -> 2026", ["diff", "models/2026-all-platforms.yaml", "models/2026-all-platforms.yaml"], 5.0, {0}),
    ("diff 2026 -> 2026 + voice MFA", ["diff", "models/2026-all-platforms.yaml", "examples/2026-voice-mfa.yaml"],
     5.0, {0, 1}),
    ("lint 2026", ["lint", "models/2026-all-platforms.yaml"], None, {0}),
    # A recording whose configurations are counted over many classes (diagnose's slowest fixture).
    ("diagnose an SRP recording", ["diagnose", "Tests/Fixtures/recordings/wrong-password.pycognito.har"], None,
     {0, 1}),
]


def run(binary, arguments, accepted):
    start = time.perf_counter()
    result = subprocess.run([binary, *arguments], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode not in accepted:
        sys.stderr.write(f"error: {binary} {' '.join(arguments)} exited {result.returncode}\n"
                         f"{result.stdout[-2000:]}{result.stderr[-2000:]}")
        sys.exit(2)
    return seconds


# (figure, column of `bench --fuzzer`'s row, goal per CPU second)
RATES = [
    ("fuzzer oracle, transitions/s", 1, 1_000_000),
    ("fuzzer sessions/s (no SRP)", 2, 50_000),
]
RATE_ARGUMENTS = ["bench", "--fuzzer", "models/2026-all-platforms.yaml"]


def rates(binary):
    """The row of `bench --fuzzer` for the 2026 model, as numbers."""
    result = subprocess.run([binary, *RATE_ARGUMENTS], cwd=ROOT, capture_output=True, text=True)
    row = next((line for line in result.stdout.splitlines() if line.startswith("amplify-signin-2026")), None)
    if result.returncode != 0 or row is None:
        sys.stderr.write(f"error: {binary} {' '.join(RATE_ARGUMENTS)} exited {result.returncode} without a "
                         f"2026 row\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
        sys.exit(2)
    return [float(field) for field in row.split()[1:4]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline")
    parser.add_argument("candidate", nargs="?", default=str(ROOT / ".build" / "release" / "signin-spec"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", help="measure only the figures whose name contains this text")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    for binary in (options.baseline, options.candidate):
        if not pathlib.Path(binary).is_file():
            parser.error(f"no such binary: {binary}")
    figures = [f for f in FIGURES if options.only is None or options.only in f[0]]
    if not figures and not any(options.only in r[0] for r in RATES):
        parser.error(f"--only: no figure's name contains '{options.only}'")
    print(f"baseline:  {options.baseline}\ncandidate: {options.candidate}")
    if figures:
        print(f"median wall seconds of {options.runs} alternating runs each")
        print(f"{'figure':34} {'baseline':>9} {'candidate':>9} {'ratio':>6}  goal")
    medians = {}
    for name, arguments, goal, accepted in figures:
        times = {"baseline": [], "candidate": []}
        for _ in range(options.runs):
            times["baseline"].append(run(options.baseline, arguments, accepted))
            times["candidate"].append(run(options.candidate, arguments, accepted))
        base, cand = statistics.median(times["baseline"]), statistics.median(times["candidate"])
        verdict = "" if goal is None else f"under {goal:g} s: {'met' if cand <= goal else 'not met'}"
        print(f"{name:34} {base:9.2f} {cand:9.2f} {cand / base:6.2f}  {verdict}")
        medians[name] = cand
    measured = [r for r in RATES if options.only is None or options.only in r[0]]
    if measured:
        rows = {"baseline": [], "candidate": []}
        for _ in range(options.runs):
            rows["baseline"].append(rates(options.baseline))
            rows["candidate"].append(rates(options.candidate))
        print(f"median per CPU second of {options.runs} runs of `bench --fuzzer` each (ratio above 1 is faster)")
        for name, column, goal in measured:
            base = statistics.median(r[column - 1] for r in rows["baseline"])
            cand = statistics.median(r[column - 1] for r in rows["candidate"])
            print(f"{name:34} {base:9.0f} {cand:9.0f} {cand / base:6.2f}  "
                  f"at least {goal:,}: {'met' if cand >= goal else 'not met'}")
    voice, today = medians.get("verify 2026 + voice MFA"), medians.get("verify 2026 (both engines)")
    if voice and today:
        ratio = voice / today
        print(f"verify of 2026 + voice MFA is {ratio:.2f}x verify of 2026 (goal: at most 1.5x: "
              f"{'met' if ratio <= 1.5 else 'not met'})")


if __name__ == "__main__":
    main()
