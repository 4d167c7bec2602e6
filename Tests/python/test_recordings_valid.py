"""The recording fixtures of `signin-spec diagnose` are well formed (no Swift needed).

Every NAME.jsonl under Tests/Fixtures/recordings/ is a plain recording
(schemas/cognito-recording.v1.schema.json), every NAME.log.jsonl a serve request log (its header
and lines, the schema's $defs), every NAME.har HAR 1.2 with Cognito entries whose JSON-lines twin
holds the same requests, and every NAME.expect.json says what diagnose must answer.
"""

import base64
import glob
import gzip
import json
import os

import pytest
from jsonschema import Draft202012Validator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests/Fixtures/recordings")
SCHEMA = json.load(open(os.path.join(ROOT, "schemas/cognito-recording.v1.schema.json")))
PREFIX = "AWSCognitoIdentityProviderService."


def validator(definition=None):
    schema = dict(SCHEMA)
    if definition:
        schema["$ref"] = f"#/$defs/{definition}"
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def files(pattern):
    return sorted(glob.glob(os.path.join(FIXTURES, "**", pattern), recursive=True))


def rel(path):
    return os.path.relpath(path, ROOT)


PLAIN = [f for f in files("*.jsonl") if not f.endswith(".log.jsonl")]
LOGS = files("*.log.jsonl")
HARS = files("*.har")
EXPECTS = files("*.expect.json")


def test_there_are_fixtures():
    assert len(EXPECTS) >= 30 and len(HARS) >= 20 and len(LOGS) >= 20 and len(PLAIN) >= 40


def test_schema_is_valid():
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", PLAIN, ids=rel)
def test_plain_recording_matches_schema(path):
    check = validator()
    lines = [line for line in open(path).read().split("\n") if line.strip()]
    assert lines, f"{rel(path)}: empty"
    for number, line in enumerate(lines, 1):
        errors = sorted(check.iter_errors(json.loads(line)), key=str)
        assert not errors, f"{rel(path)}:{number}: {errors[0].message} at {list(errors[0].absolute_path)}"


@pytest.mark.parametrize("path", LOGS, ids=rel)
def test_request_log_matches_schema(path):
    lines = [json.loads(line) for line in open(path) if line.strip()]
    header = validator("requestLogHeader")
    assert not list(header.iter_errors(lines[0])), f"{rel(path)}:1: not the request log's header"
    check = validator("requestLogLine")
    for number, line in enumerate(lines[1:], 2):
        errors = list(check.iter_errors(line))
        assert not errors, f"{rel(path)}:{number}: {errors[0].message}"
        assert "Passw0rd" not in json.dumps(line), f"{rel(path)}:{number}: a password in serve's log"


def test_schema_accepts_and_refuses():
    check = validator()
    good = [
        {"operation": "InitiateAuth", "request": {}, "response": {"ChallengeName": "SMS_MFA", "Session": "s"},
         "status": 200, "time": "2026-11-25T10:00:00Z"},
        {"operation": "AWSCognitoIdentityProviderService.RespondToAuthChallenge", "request": {},
         "response": {"__type": "com.amazonaws.cognito.identity.idp.model#CodeMismatchException", "message": "x"},
         "status": 400},
        {"operation": "RespondToAuthChallenge", "request": {}, "response": None, "status": None, "error": "reset"},
        {"operation": "RespondToAuthChallenge", "request": {}, "response": None, "status": 500},
    ]
    bad = [
        {"operation": "InitiateAuth", "request": {}, "response": None, "status": None},  # no answer, no error
        {"operation": "InitiateAuth", "request": {}, "response": {"message": "x"}, "status": 400},  # no __type
        {"operation": "InitiateAuth", "request": {}, "response": {"__type": "X"}, "status": 200},
        {"operation": "InitiateAuth", "request": {}, "response": None, "status": None, "error": "lost"},
        {"operation": "InitiateAuth", "request": {}, "response": {}, "status": 200, "extra": 1},
        {"operation": "InitiateAuth", "request": {}, "response": {}, "status": 200, "time": "yesterday"},
        {"request": {}, "response": {}, "status": 200},
    ]
    for line in good:
        assert not list(check.iter_errors(line)), line
    for line in bad:
        assert list(check.iter_errors(line)), line


def body(content):
    if not content or "text" not in content:
        return None
    data = base64.b64decode(content["text"]) if content.get("encoding") == "base64" else content["text"].encode()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode()


def cognito_target(entry):
    for h in entry["request"]["headers"]:
        if h["name"].lower() == "x-amz-target" and h["value"].startswith(PREFIX):
            return h["value"][len(PREFIX):]
    return None


@pytest.mark.parametrize("path", HARS, ids=rel)
def test_har_is_har_1_2_with_cognito_entries(path):
    har = json.load(open(path))
    log = har["log"]
    assert log["version"] == "1.2"
    assert {"name", "version"} <= set(log["creator"])
    assert isinstance(log["entries"], list)
    for index, entry in enumerate(log["entries"]):
        where = f"{rel(path)} entry {index}"
        assert {"startedDateTime", "time", "request", "response", "cache", "timings"} <= set(entry), where
        request, response = entry["request"], entry["response"]
        assert {"method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize",
                "bodySize"} <= set(request), where
        assert {"status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                "headersSize", "bodySize"} <= set(response), where
        assert {"size", "mimeType"} <= set(response["content"]), where
        assert {"send", "wait", "receive"} <= set(entry["timings"]), where
    cognito = [e for e in log["entries"] if cognito_target(e)]
    assert cognito, f"{rel(path)}: no Cognito request"
    # The JSON-lines twin holds the same requests, in order.
    twin = path[: -len(".har")] + ".jsonl"
    assert os.path.exists(twin), f"{rel(path)}: no {rel(twin)}"
    lines = [json.loads(line) for line in open(twin) if line.strip()]
    assert len(lines) == len(cognito)
    for line, entry in zip(lines, cognito):
        assert line["operation"].removeprefix(PREFIX) == cognito_target(entry)
        assert line["request"] == json.loads(body(entry["request"].get("postData")))
        if entry["response"]["status"]:
            assert line["status"] == entry["response"]["status"]
            assert line["response"] == json.loads(body(entry["response"]["content"]))
        else:
            assert line["response"] is None and line["error"] == "reset"


@pytest.mark.parametrize("path", EXPECTS, ids=rel)
def test_expect_file(path):
    expect = json.load(open(path))
    assert expect["model"] == "models/2026-all-platforms.yaml"
    assert os.path.exists(os.path.join(ROOT, expect["model"]))
    assert expect["verdict"] in ("consistent", "inconsistent")
    assert isinstance(expect.get("served", {}), dict)
    for name in expect.get("served", {}):
        assert name.startswith(("pool.", "user.")), name
    base = path[: -len(".expect.json")]
    recordings = [base + ext for ext in (".har", ".log.jsonl", ".jsonl") if os.path.exists(base + ext)]
    assert recordings, f"{rel(path)}: no recording beside it"
    if expect["verdict"] == "inconsistent":
        k = expect["inconsistentAt"]
        lines = [line for line in open(base + ".jsonl") if line.strip()]
        assert isinstance(k, int) and 1 <= k <= len(lines)
    else:
        assert "inconsistentAt" not in expect
    if "/reference/" in path:
        assert expect.get("source", "").startswith("https://"), f"{rel(path)}: no source"
