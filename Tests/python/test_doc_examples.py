"""Every console example of README.md and docs/guide/*.md, run as written.

The convention (also in docs/guide/index.md):

- A console example is a fenced block opened with ```console. Each line that starts with
  `$ signin-spec ` is a command (run from the repository root with the binary in
  SIGNIN_SPEC_BIN); the lines after it, up to the next `$ ` line or the end of the block, are
  what it prints (standard output and standard error together, in order).
- A command line may end in comments: `# exit N` is the exit code the example expects (no such
  comment: 0); `# long` marks an example that takes more than a few seconds, run only when
  SIGNIN_SPEC_LONG=1. Any other comment is prose for the reader.
- A line that is only `…` stands for any number of lines (none included).
- A command that writes a file writes it under `.build/` (the test makes the folder).
- Before comparing, both sides are normalised: times (`0.42 s`, `in 1.3 s`, `15 ms`), rates
  (`161 calls/s`), dates and ISO times, the repository's absolute path, port numbers after
  `127.0.0.1:` or `localhost:`, and runs of spaces (so a wider time does not move a column).

The examples of docs/guide/diagnose.md (plain ``` blocks, exact output) and the `serve` command
lines of docs/guide/serve.md (```sh, run with the Python blocks below them) have their own tests:
test_diagnose_guide.py and test_guide_examples.py. `test_no_untested_console_example` fails on a
`$ signin-spec` block that none of the three tests reads.
"""

import os
import sys
import re
import shlex
import subprocess

import pytest

from test_serve_boto3 import BINARY, ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.S | re.M)
ELLIPSIS = "…"
LONG = os.environ.get("SIGNIN_SPEC_LONG") == "1"
sys.setrecursionlimit(20000)


class Example:
    def __init__(self, page, line, command, expected, exit_code, long):
        self.page, self.line, self.command = page, line, command
        self.expected, self.exit_code, self.long = expected, exit_code, long

    @property
    def id(self):
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def split_comment(command_line):
    """`signin-spec verify x   # exit 1 # long` → (arguments, exit code, long)."""
    words = shlex.split(command_line, comments=False, posix=True)
    if "#" in words:
        at = words.index("#")
        words, comment = words[:at], " ".join(words[at:])
    else:
        comment = ""
    match = re.search(r"#\s*exit\s+(\d+)", comment)
    return words, int(match.group(1)) if match else 0, bool(re.search(r"#\s*long\b", comment))


def examples_in(page):
    text = page.read_text()
    found = []
    for fence in FENCE.finditer(text):
        language, body = fence.group(1).strip(), fence.group(2)
        if language != "console":
            continue
        first = text.count("\n", 0, fence.start()) + 2
        lines = body.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        index = 0
        while index < len(lines):
            line = lines[index]
            assert line.startswith("$ signin-spec "), f"{page}:{first + index}: a console block's commands start with `$ signin-spec `"
            start = index
            command = line[2:]
            while command.endswith("\\"):
                index += 1
                command = command[:-1] + " " + lines[index].strip()
            index += 1
            output = []
            while index < len(lines) and not lines[index].startswith("$ "):
                output.append(lines[index])
                index += 1
            words, exit_code, long = split_comment(command)
            found.append(Example(page, first + start, words, output, exit_code, long))
    return found


def all_examples():
    return [example for page in PAGES for example in examples_in(page)]


TIME = re.compile(r"\b\d+(?:[.,]\d+)?\s?(?:s|ms|µs|minutes?)\b")
RATE = re.compile(r"\b\d+(?:\.\d+)? (calls|cases|states|sessions|transitions)/s\b")
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?\b")
PORT = re.compile(r"\b(127\.0\.0\.1|localhost):\d+")


def normalise(line):
    line = line.replace(str(ROOT) + "/", "").replace(str(ROOT), ".")
    line = DATE.sub("<date>", line)
    line = RATE.sub(r"<n> \1/s", line)
    line = TIME.sub("<t>", line)
    line = PORT.sub(r"\1:<port>", line)
    return re.sub(r"\s+", " ", line).strip()


def compare(expected, actual):
    """None when `actual` (lines) matches `expected` (lines, `…` for any lines); else a message
    naming the first expected line that was not found and what the tool printed there."""
    want = [None if line.strip() == ELLIPSIS else normalise(line) for line in expected]
    got = [normalise(line) for line in actual]

    def match(w, g):
        if w == len(want):
            return None if g == len(got) else (w, g)
        if want[w] is None:
            best = None
            for skip in range(g, len(got) + 1):
                failure = match(w + 1, skip)
                if failure is None:
                    return None
                if best is None or failure[0] > best[0]:
                    best = failure
            return best
        if g < len(got) and want[w] == got[g]:
            return match(w + 1, g + 1)
        return (w, g)

    failure = match(0, 0)
    if failure is None:
        return None
    w, g = failure
    shown = expected[w] if w < len(expected) else "(end of the example)"
    printed = actual[g] if g < len(actual) else "(end of the output)"
    return f"expected line {w + 1}: {shown!r}\n     the tool printed: {printed!r}"


def run(example):
    # Examples that write, write under .build/ (ignored by git); a fresh checkout has none yet.
    (ROOT / ".build").mkdir(exist_ok=True)
    process = subprocess.run(
        [BINARY, *example.command[1:]],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
        env={key: value for key, value in os.environ.items() if key != "CI"},
    )
    return process.returncode, process.stdout.rstrip("\n").split("\n") if process.stdout else []


def test_the_docs_have_examples():
    assert len(all_examples()) >= 20


@pytest.mark.parametrize("example", all_examples(), ids=lambda example: example.id)
def test_doc_example(example):
    if example.long and not LONG:
        pytest.skip("a long example: set SIGNIN_SPEC_LONG=1 to run it")
    code, output = run(example)
    problem = compare(example.expected, output)
    assert problem is None, f"{example.id}: `{' '.join(example.command)}`\n{problem}\n--- printed:\n" + "\n".join(output)
    assert code == example.exit_code, f"{example.id}: exit {code}, the example says {example.exit_code}"


def test_no_untested_console_example():
    """A block showing `$ signin-spec` is a ```console block, or one the other guide tests read."""
    for page in PAGES:
        for fence in FENCE.finditer(page.read_text()):
            language, body = fence.group(1).strip(), fence.group(2)
            if language == "console" or not re.search(r"^\$ signin-spec ", body, re.M):
                continue
            if page.name == "diagnose.md" and language == "" and body.startswith("$ signin-spec diagnose "):
                continue
            if page.name == "serve.md" and language == "sh" and body.startswith("$ signin-spec serve "):
                continue
            pytest.fail(f"{page.relative_to(ROOT)}: a `$ signin-spec` example outside a ```console block:\n{body}")


# The comparison itself must be able to fail.


def test_compare_reports_a_changed_line():
    problem = compare(["a", "  holds     terminates   0.12 s"], ["a", "  VIOLATED  terminates   0.12 s"])
    assert problem is not None and "holds" in problem and "VIOLATED" in problem


def test_compare_reports_a_missing_and_an_extra_line():
    assert compare(["a", "b"], ["a"]) is not None
    assert compare(["a"], ["a", "b"]) is not None


def test_compare_normalises_times_dates_paths_and_ports():
    assert compare(["explicit search: 4 states in 0.02 s (161 calls/s)"], ["explicit search: 4 states in 13.5 s (7 calls/s)"]) is None
    assert compare(["listening on http://127.0.0.1:9229, 2026-11-25T10:00:00Z"], ["listening on http://127.0.0.1:40123, 2027-01-02T03:04:05Z"]) is None
    assert compare(["file models/x.yaml"], [f"file {ROOT}/models/x.yaml"]) is None
    assert compare(["4 states"], ["5 states"]) is not None


def test_compare_ellipsis_stands_for_any_lines():
    assert compare(["a", "…", "z"], ["a", "b", "c", "z"]) is None
    assert compare(["a", "…", "z"], ["a", "z"]) is None
    assert compare(["a", "…"], ["a", "b"]) is None
    assert compare(["a", "…", "z"], ["a", "b"]) is not None


def test_examples_parse_exit_codes_and_long_marks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ signin-spec verify x.yaml   # exit 1 # long\nline\n$ signin-spec list \\\n    y.yaml\n```\n"
    )
    first, second = examples_in(page)
    assert first.command == ["signin-spec", "verify", "x.yaml"] and first.exit_code == 1 and first.long
    assert first.expected == ["line"] and first.line == 2
    assert second.command == ["signin-spec", "list", "y.yaml"] and second.exit_code == 0 and not second.long


# Every relative link of the README and the guide points to a file that exists and, with a
# #fragment, to a heading of that file.

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"", re.I)


def blank(match):
    return re.sub(r"[^\n]", " ", match.group(0))


def without_fences(text):
    """The text with fenced blocks blanked out (lines kept, so line numbers stay)."""
    return re.sub(r"^(`{3,}|~{3,})[^\n]*\n.*?^\1[^\n]*$", blank, text, flags=re.S | re.M)


def without_code(text):
    """The text with fenced blocks and inline code spans blanked out (a link in code is not one)."""
    return re.sub(r"(`+)(?:(?!\1).)+?\1", blank, without_fences(text))


def slug(heading):
    """GitHub's anchor for a heading: its text (a link's text, no code marks), lowercase, every
    character but letters, digits, spaces, `-` and `_` dropped, spaces to `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(page):
    """Every #fragment a page has: its headings' slugs (a repeated one gets -1, -2, …) and
    explicit <a id=…> anchors."""
    found, seen = set(), {}
    for match in HEADING.finditer(without_fences(page.read_text())):
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    found.update(ANCHOR.findall(page.read_text()))
    return found


def links(page):
    """(line, target) for every relative link of the page."""
    text = without_code(page.read_text())
    return [
        (text.count("\n", 0, match.start()) + 1, match.group(1))
        for match in LINK.finditer(text)
        if not re.match(r"^[a-z][a-z0-9+.-]*:", match.group(1), re.I)
    ]


def broken_links(pages):
    problems = []
    for page in pages:
        for line, target in links(page):
            path, _, fragment = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(ROOT) if page.is_relative_to(ROOT) else page.name}:{line}: ({target})"
            if not file.exists():
                problems.append(f"{where} no such file")
            elif fragment and file.suffix == ".md" and fragment not in anchors(file):
                problems.append(f"{where} no heading with the anchor #{fragment} in {file.name}")
    return problems


def test_relative_links_point_to_files_and_headings():
    problems = broken_links(PAGES)
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_the_link_check_can_fail(tmp_path):
    (tmp_path / "other.md").write_text("# The `verify` command [MODEL…]\n\n## Same\n\n## Same\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[a](other.md#the-verify-command-model) [b](other.md#same-1) [c](#here)\n\n## Here\n\n"
        "`[not a link](missing.md)`\n\n```\n[nor this](missing.md)\n```\n"
        "[d](missing.md) [e](other.md#nowhere) [f](https://example.com/x#y)\n"
    )
    problems = broken_links([page])
    assert len(problems) == 2, problems
    assert "(missing.md) no such file" in problems[0] and "#nowhere" in problems[1]
