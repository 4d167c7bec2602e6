"""`signin-spec diagnose` on the recording fixtures.

For every NAME.expect.json under Tests/Fixtures/recordings/ (recorded: scripts/record.py; edited:
scripts/edit-recording.py; reference/: Cognito's documented examples, by hand), runs

    signin-spec diagnose FILE --model MODEL --format json

on each recording beside it (NAME.har, NAME.log.jsonl, NAME.jsonl) and checks the answer against
the expect file:

- the exit status: 0 for a consistent recording, 1 for an inconsistent one;
- the JSON document (format signin-spec-diagnosis, version 1): one file of the right kind, flows
  that cover the file's Cognito requests, each flow's verdict;
- consistent: every pool./user. setting serve was given (`served`, and a multi-user recording's
  `users`: each user's own settings, checked on that user's flows) is allowed by each flow's
  `configurations.values` (a variable left out takes any value), and `count` is a decimal string > 0;
- inconsistent: a flow is inconsistent at request K (`inconsistentAt` of the expect file, 1-based
  among the file's Cognito requests; `entry` is the JSON-lines line number), with what was
  observed and what the model allows there;
- no password, code, session, token or other secret of the recording appears in the output, and
  the secret fields the recording holds are listed in `redacted`.

Until `diagnose` exists (`signin-spec --help` lists no diagnose subcommand) the module is skipped; set
SIGNIN_SPEC_DIAGNOSE_REQUIRED=1 to make that a failure instead.
"""

import base64
import glob
import gzip
import json
import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("SIGNIN_SPEC_BIN", str(ROOT / ".build" / "release" / "signin-spec"))
FIXTURES = ROOT / "Tests" / "Fixtures" / "recordings"
PREFIX = "AWSCognitoIdentityProviderService."
EXIT = {"consistent": 0, "inconsistent": 1}
# The fields whose values are secrets (as serve's request log redacts them, Sources/CognitoServer/RequestLog.swift).
SECRET_KEYS = {
    "PASSWORD", "NEW_PASSWORD", "SMS_MFA_CODE", "SOFTWARE_TOKEN_MFA_CODE", "EMAIL_OTP_CODE", "SMS_OTP_CODE",
    "EMAIL_MFA_CODE", "ANSWER", "PASSWORD_CLAIM_SIGNATURE", "PASSWORD_CLAIM_SECRET_BLOCK", "SECRET_BLOCK",
    "SECRET_HASH", "UserCode", "AccessToken", "IdToken", "RefreshToken", "SecretCode", "PasswordVerifier", "Salt",
    "SALT", "SRP_A", "SRP_B", "CREDENTIAL", "Session",
}
CHOICES = {"SELECT_MFA_TYPE", "SELECT_CHALLENGE"}  # their ANSWER is a choice, not a secret


def _diagnose_exists():
    """Whether the binary lists a diagnose subcommand (`signin-spec diagnose --help` exits 0 either
    way: ArgumentParser answers an unknown subcommand's --help with the root help)."""
    try:
        help_text = subprocess.run([BIN, "--help"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return re.search(r"^\s+diagnose\s", help_text, re.MULTILINE) is not None


if not _diagnose_exists() and os.environ.get("SIGNIN_SPEC_DIAGNOSE_REQUIRED") != "1":
    pytest.skip(f"{BIN} has no diagnose subcommand", allow_module_level=True)


def kind_of(path):
    if path.endswith(".har"):
        return "har"
    if path.endswith(".log.jsonl"):
        return "request-log"
    return "jsonl"


def cases():
    result = []
    for expect in sorted(glob.glob(str(FIXTURES / "**" / "*.expect.json"), recursive=True)):
        base = expect[: -len(".expect.json")]
        for ext in (".har", ".log.jsonl", ".jsonl"):
            if os.path.exists(base + ext):
                result.append(pytest.param(expect, base + ext, id=os.path.relpath(base + ext, FIXTURES)))
    return result


def body(content):
    """A HAR body as text: base64 decoded, gzip inflated."""
    if not content or "text" not in content:
        return None
    data = base64.b64decode(content["text"]) if content.get("encoding") == "base64" else content["text"].encode()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode()


def cognito_exchanges(path):
    """The recording's Cognito requests, in file order, as (operation, request, response)."""
    kind = kind_of(path)
    if kind == "har":
        exchanges = []
        for entry in json.load(open(path))["log"]["entries"]:
            target = next((h["value"] for h in entry["request"]["headers"]
                           if h["name"].lower() == "x-amz-target"), "")
            if not target.startswith(PREFIX):
                continue
            request = json.loads(body(entry["request"].get("postData")) or "{}")
            text = body(entry["response"].get("content"))
            exchanges.append((target[len(PREFIX):], request, json.loads(text) if text else None))
        return exchanges
    lines = [json.loads(line) for line in open(path) if line.strip()]
    if kind == "request-log":
        lines = lines[1:]
    return [(line["operation"].removeprefix(PREFIX), line["request"], line["response"]) for line in lines]


def secrets_of(path):
    """Every secret value in the recording (and the field names holding one)."""
    values, keys = set(), set()

    def walk(value, key, choice):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k, choice)
        elif isinstance(value, list):
            for v in value:
                walk(v, key, choice)
        elif isinstance(value, str) and key in SECRET_KEYS and not (key == "ANSWER" and choice):
            if value != "<redacted>" and not value.startswith("session#") and len(value) >= 6:
                values.add(value)
                keys.add(key)

    for _, request, response in cognito_exchanges(path):
        choice = request.get("ChallengeName") in CHOICES
        walk(request, None, choice)
        walk(response, None, False)
    return values, keys


def strings_in(value, skip_key=None, key=None):
    if isinstance(value, dict):
        for k, v in value.items():
            if k != skip_key:
                yield from strings_in(v, skip_key, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v, skip_key, key)
    elif isinstance(value, str):
        yield value


def normal(value):
    return json.dumps(value) if not isinstance(value, str) else value


@pytest.mark.parametrize("expect_path,path", cases())
def test_diagnose(expect_path, path):
    expect = json.load(open(expect_path))
    model = expect["model"]
    result = subprocess.run([BIN, "diagnose", path, "--model", model, "--format", "json"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    where = f"{os.path.relpath(path, ROOT)} (stderr: {result.stderr[-2000:]})"
    assert result.returncode == EXIT[expect["verdict"]], where
    output = json.loads(result.stdout)
    assert output["format"] == "signin-spec-diagnosis" and output["version"] == 1, where
    assert isinstance(output["model"], str) and output["model"], where
    assert len(output["files"]) == 1, where
    file = output["files"][0]
    assert os.path.realpath(os.path.join(ROOT, file["file"])) == os.path.realpath(path), where
    assert file["kind"] == kind_of(path), where

    # The flows cover the file's Cognito requests, each once, numbered 1…N.
    count = len(cognito_exchanges(path))
    flows = file["flows"]
    assert flows, where
    numbers = [n for flow in flows for n in flow["requests"]]
    assert sorted(numbers) == list(range(1, count + 1)), where
    for flow in flows:
        assert flow["requests"] == sorted(flow["requests"]), where
        assert flow["verdict"] in ("consistent", "inconsistent", "inconclusive"), where

    if expect["verdict"] == "consistent":
        for flow in flows:
            assert flow["verdict"] == "consistent", f"{where}: {flow}"
            assert "inconsistentAt" not in flow, where
            configurations = flow["configurations"]
            assert isinstance(configurations["count"], str) and re.fullmatch(r"[1-9][0-9]*",
                                                                            configurations["count"]), where
            values = configurations["values"]
            # serve's settings: the pool's for every flow, the user's for its own flows (a
            # multi-user recording's expect file has each user's settings under "users").
            settings = dict(expect.get("served", {}))
            if "users" in expect:
                settings = {k: v for k, v in settings.items() if k.startswith("pool.")}
                assert flow["username"] in expect["users"], f"{where}: flow of {flow['username']}"
                settings.update(expect["users"][flow["username"]])
            for variable, served in settings.items():
                if variable in values:
                    allowed = [normal(v) for v in values[variable]]
                    assert normal(served) in allowed, f"{where}: served {variable}={served}, allowed {allowed}"
    else:
        k = expect["inconsistentAt"]
        bad = [flow for flow in flows if flow["verdict"] == "inconsistent"]
        assert len(bad) == 1, f"{where}: {flows}"
        assert all(flow["verdict"] == "consistent" for flow in flows if flow is not bad[0]), where
        at = bad[0]["inconsistentAt"]
        assert at["request"] == k, f"{where}: inconsistent at request {at['request']}, expected {k}"
        assert k in bad[0]["requests"], where
        if kind_of(path) == "jsonl":
            assert at["entry"] == k, where  # every line of a JSON-lines recording is a Cognito request
        assert isinstance(at["observed"], str) and at["observed"], where
        assert isinstance(at["allowed"], list) and at["allowed"], where

    # No secret of the recording in the output (stdout or stderr); the output names what it redacted.
    secrets, keys = secrets_of(path)
    texts = list(strings_in(output, skip_key="count")) + [result.stderr]
    for secret in secrets:
        for text in texts:
            if len(secret) >= 8:
                assert secret not in text, f"{where}: a secret ({secret[:3]}…) in the output"
            else:
                assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])", text), \
                    f"{where}: a secret ({secret[:2]}…) in the output"
    for key in keys - {"Session"}:
        assert key in output["redacted"], f"{where}: {key} held a secret; redacted lists {output['redacted']}"
