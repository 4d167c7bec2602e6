"""The examples of docs/guide/serve.md, run as written: each Python block marked
`# guide-example: NAME` runs against `signin-spec serve` started with the `$ signin-spec serve`
line above it (its `--port 9229` replaced by `--port 0`, and the block's `http://127.0.0.1:9229`
by the port the server chose). `START_LINES` holds the server's start-up lines."""

import pathlib
import re
import shlex
import subprocess

import pytest

from test_serve_boto3 import BINARY, ROOT

GUIDE = ROOT / "docs" / "guide" / "serve.md"
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def examples():
    found, command = [], None
    for match in BLOCK.finditer(GUIDE.read_text()):
        language, text = match.groups()
        if language == "sh" and text.startswith("$ signin-spec serve"):
            command = shlex.split(text.strip()[2:])
        elif language == "python" and text.startswith("# guide-example: "):
            assert command, f"no serve command above {text.splitlines()[0]}"
            found.append(pytest.param(command, text, id=text.splitlines()[0][len("# guide-example: ") :]))
    return found


def test_the_guide_has_examples():
    assert len(examples()) >= 5


@pytest.mark.parametrize("command,code", examples())
def test_guide_example(command, code):
    arguments = [a if a != "9229" else "0" for a in command[1:]]
    process = subprocess.Popen([BINARY, *arguments], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline().rstrip("\n") for _ in range(3)]
        if "user.totpRegistered=true" in arguments:
            lines.append(process.stdout.readline().rstrip("\n"))
        assert lines[0].startswith("listening on http://"), lines
        url = lines[0][len("listening on ") :]
        exec(compile(code.replace("http://127.0.0.1:9229", url), str(GUIDE), "exec"), {"START_LINES": lines})
    finally:
        process.terminate()
        assert process.wait(timeout=30) == 0
