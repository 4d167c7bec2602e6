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
