"""The command lines of docs/guide/adapters.md, run as written, with two changes so a test stays
short and leaves the repository alone: `--runs N` becomes `--runs 200`, and `--corpus DIR` a
temporary folder. `fuzz` exits 0 or 1 (1: findings) and names the adapter; `replay` on the
committed boto3 findings exits 1 with every case failing (the findings stand)."""

import pathlib
import re
import shlex
import subprocess

import pytest

from test_serve_boto3 import BINARY, ROOT

GUIDE = ROOT / "docs" / "guide" / "adapters.md"


def commands():
    lines = [line for line in GUIDE.read_text().splitlines() if line.startswith("signin-spec ")]
    return [pytest.param(shlex.split(line)[1:], id=" ".join(shlex.split(line)[:2])) for line in lines]


def test_the_guide_has_commands():
    assert len(commands()) >= 2


@pytest.mark.parametrize("arguments", commands())
def test_guide_command(arguments, tmp_path):
    arguments = list(arguments)
    for option, value in (("--runs", "200"), ("--corpus", str(tmp_path / "corpus"))):
        if option in arguments:
            arguments[arguments.index(option) + 1] = value
    if arguments[0] == "fuzz":
        arguments += ["--seed", "1", "--jobs", "1"]
    run = subprocess.run([BINARY, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=600)
    if arguments[0] == "fuzz":
        assert run.returncode in (0, 1), run.stderr
        assert "through adapter `python3 adapters/boto3/adapter.py`" in run.stdout
        assert re.search(r"  200 cases, \d+ calls", run.stdout), run.stdout
    else:
        cases = len(list((ROOT / "counterexamples" / "adapters" / "boto3").glob("*.json")))
        assert run.returncode == 1, run.stdout + run.stderr
        assert f": 0 passed, {cases} failed, 0 stale, 0 unsupported by this client" in run.stdout
