"""The examples of docs/guide/diagnose.md, run as written: each ```-block that starts with
`$ signin-spec diagnose …` must print exactly the lines that follow it."""

import re
import shlex
import subprocess

import pytest

from test_serve_boto3 import BINARY, ROOT

GUIDE = ROOT / "docs" / "guide" / "diagnose.md"
BLOCK = re.compile(r"```\n(\$ signin-spec diagnose [^\n]*)\n(.*?)```", re.S)


def examples():
    return [pytest.param(command, output, id=command) for command, output in BLOCK.findall(GUIDE.read_text())]


def test_the_guide_has_examples():
    assert len(examples()) >= 2


@pytest.mark.parametrize("command,output", examples())
def test_guide_example(command, output):
    arguments = shlex.split(command[2:])[1:]
    run = subprocess.run([BINARY, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1), run.stderr
    assert run.stdout == output
