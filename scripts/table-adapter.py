#!/usr/bin/env python3
"""A minimal client adapter (protocol v1, docs/guide/adapters.md) that answers from a table and
calls nothing: `signin-spec bench --adapters` times the protocol alone with it (JSON lines over
pipes, one request in flight), to compare with a call through `signin-spec serve`."""
import json
import sys

HELLO = {"type": "hello", "protocol": 1, "client": "table 1", "steps": {"done": "done"},
         "capabilities": {"flows": ["userPassword"], "challenges": []}}
ANSWERS = {
    "signIn": {"type": "observation", "step": "done", "error": None, "isSignedIn": True},
    "confirmSignIn": {"type": "observation", "step": None,
                      "error": {"type": "InvalidStateError", "message": "no sign-in in progress"},
                      "isSignedIn": False},
}
FRESH = {"type": "observation", "step": None, "error": None, "isSignedIn": False}

for line in sys.stdin:
    request = json.loads(line)
    kind = request.get("type")
    answer = HELLO if kind == "hello" else ANSWERS.get(kind, FRESH)
    sys.stdout.write(json.dumps(dict(answer, id=request["id"])) + "\n")
    sys.stdout.flush()
