"""scripts/bench-compare.py: figures measured side by side with a baseline binary."""

import subprocess
import sys

from test_serve_boto3 import BINARY, ROOT

SCRIPT = ROOT / "scripts" / "bench-compare.py"


def test_a_figure_against_itself_gives_a_ratio_and_its_goal():
    result = subprocess.run(
        [sys.executable, str(SCRIPT), BINARY, BINARY, "--runs", "1", "--only", "prove"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    row = [line for line in lines if line.startswith("prove (3 shipped models)")]
    assert len(row) == 1, result.stdout
    words = row[0].split()
    baseline, candidate, ratio = float(words[4]), float(words[5]), float(words[6])
    assert baseline > 0 and candidate > 0
    # The ratio is of the unrounded medians, and all three are printed to 2 decimals: it lies
    # between the quotients of the figures' extremes, give or take its own rounding.
    half = 0.005
    assert (candidate - half) / (baseline + half) - half <= ratio <= (candidate + half) / (baseline - half) + half
    assert "under 1 s:" in row[0]


def test_a_missing_binary_or_figure_is_refused():
    missing = subprocess.run([sys.executable, str(SCRIPT), "/no/such/signin-spec", BINARY],
                             cwd=ROOT, capture_output=True, text=True)
    assert missing.returncode == 2 and "no such binary: /no/such/signin-spec" in missing.stderr
    nothing = subprocess.run([sys.executable, str(SCRIPT), BINARY, BINARY, "--only", "nothing-like-this"],
                             cwd=ROOT, capture_output=True, text=True)
    assert nothing.returncode == 2 and "no figure's name contains" in nothing.stderr
