"""docs/guide/commands.md is every subcommand's `--help` as the built binary prints it: regenerating
it (scripts/command-reference.py) gives the committed page, so the reference cannot drift."""

import re
import subprocess
import sys

from test_serve_boto3 import BINARY, ROOT


def test_the_command_reference_is_what_the_binary_prints(tmp_path):
    out = tmp_path / "commands.md"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "command-reference.py"), BINARY, str(out)], check=True, cwd=ROOT
    )
    committed = (ROOT / "docs" / "guide" / "commands.md").read_text()
    assert out.read_text() == committed, "docs/guide/commands.md is stale: run `make command-reference`"


def test_every_subcommand_has_a_section():
    top = subprocess.run([BINARY, "--help"], capture_output=True, text=True, check=True).stdout
    page = (ROOT / "docs" / "guide" / "commands.md").read_text()
    section = top.split("SUBCOMMANDS:", 1)[1]
    names = re.findall(r"^  ([a-z][a-z-]*)\s", section, re.M)
    assert len(names) >= 15
    for name in names:
        if name != "help":
            assert f"## signin-spec {name}\n" in page, name


def test_the_examples_name_files_that_exist():
    """Every shipped file an example of `--help` names (a model, a counterexample, a scenario,
    an example model) is in the repository, so the example runs as printed."""
    page = (ROOT / "docs" / "guide" / "commands.md").read_text()
    named = set(
        re.findall(r"\b((?:models|counterexamples|scenarios|docs/guide/examples)/[\w./-]+\.(?:yaml|yml|json))\b", page)
    )
    assert any(p.startswith("counterexamples/") for p in named)
    assert any(p.startswith("models/") for p in named)
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert missing == [], f"--help examples name files that do not exist: {missing}"
