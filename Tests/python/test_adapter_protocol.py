"""The adapter protocol's schema against real messages, from another language than Swift.

Starts `signin-spec serve` (SMS MFA) and the reference adapter (SIGNIN_SPEC_ADAPTER_BIN, default
.build/release/signin-spec-adapter), drives a sign-in through the protocol as a fuzzer would
(hello, reset, signIn, confirmSignIn with the code from the outbox, signOut), and checks every
request sent and every answer read against schemas/adapter-protocol.v1.schema.json.
"""

import json
import os
import pathlib
import subprocess
import urllib.request

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVE = os.environ.get("SIGNIN_SPEC_BIN", str(ROOT / ".build" / "release" / "signin-spec"))
ADAPTER = os.environ.get("SIGNIN_SPEC_ADAPTER_BIN", str(ROOT / ".build" / "release" / "signin-spec-adapter"))
SCHEMA = json.loads((ROOT / "schemas" / "adapter-protocol.v1.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_a_sign_in_through_the_reference_adapter_speaks_the_schema():
    server = subprocess.Popen(
        [SERVE, "serve", "--port", "0", "--seed", "1", "--set", "pool.mfa=required", "--set", "pool.sms=true",
         "--set", "user.phone=true"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    adapter = subprocess.Popen([ADAPTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        lines = [server.stdout.readline().rstrip("\n") for _ in range(3)]
        url = lines[0][len("listening on "):]
        pool_id, client_id = lines[1].split(": ")[1], lines[2].split(": ")[1]
        ids = iter(range(1, 100))

        def call(request):
            request = {"id": next(ids), **request}
            VALIDATOR.validate(request)
            adapter.stdin.write(json.dumps(request) + "\n")
            adapter.stdin.flush()
            answer = json.loads(adapter.stdout.readline())
            VALIDATOR.validate(answer)
            assert answer["id"] == request["id"]
            return answer

        hello = call({"type": "hello", "protocol": 1, "endpoint": url + "/"})
        assert hello["type"] == "hello" and hello["protocol"] == 1
        assert "WEB_AUTHN" not in hello["capabilities"]["challenges"]
        reset = call({"type": "reset", "poolId": pool_id, "clientId": client_id, "username": "user",
                      "password": "Passw0rd!"})
        assert reset["step"] is None and reset["isSignedIn"] is False
        challenge = call({"type": "signIn", "username": "user", "password": "Passw0rd!",
                          "options": {"authFlow": "userPassword"}})
        assert challenge["step"] == "confirmSignInWithSMSMFACode"
        assert challenge["delivery"]["medium"] == "SMS"
        with urllib.request.urlopen(f"{url}/_signin-spec/messages?username=user") as answer:
            code = json.load(answer)["messages"][-1]["code"]
        wrong = call({"type": "confirmSignIn", "answer": "000000" if code != "000000" else "000001"})
        assert wrong["error"]["type"] == "CodeMismatchException"
        assert code not in wrong["error"]["message"]
        done = call({"type": "confirmSignIn", "answer": code})
        assert done["step"] == "done" and done["isSignedIn"] is True
        out = call({"type": "signOut"})
        assert out["step"] is None and out["isSignedIn"] is False
        adapter.stdin.close()
        assert adapter.wait(timeout=30) == 0, "the adapter exits 0 when its stdin closes"
    finally:
        if adapter.poll() is None:
            adapter.kill()
            adapter.wait()
        server.terminate()
        server.wait(timeout=30)
