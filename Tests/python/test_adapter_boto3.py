"""The boto3 client adapter (adapters/boto3/adapter.py) in real conversations with `signin-spec serve`.

One server (SIGNIN_SPEC_BIN, default .build/release/signin-spec) for the module, a pool per
test made with the control endpoints, the adapter run as a subprocess and driven over the
protocol as the fuzzer drives it; every request and answer is checked against
schemas/adapter-protocol.v1.schema.json. Codes come from the outbox endpoint, TOTP codes from
pyotp (the server runs on the system clock, and accepts one step either side).
"""

import contextlib
import http.server
import json
import os
import pathlib
import subprocess
import sys
import threading
import urllib.request

import jsonschema
import pyotp
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVE = os.environ.get("SIGNIN_SPEC_BIN", str(ROOT / ".build" / "release" / "signin-spec"))
SCHEMA = json.loads((ROOT / "schemas" / "adapter-protocol.v1.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
BOTO3_ADAPTER = [sys.executable, str(ROOT / "adapters" / "boto3" / "adapter.py")]
USER, PASSWORD = "user", "Passw0rd!"


@pytest.fixture(scope="module")
def server():
    """`signin-spec serve --port 0` for the module; yields its URL (no trailing slash)."""
    process = subprocess.Popen([SERVE, "serve", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline().rstrip("\n")
        assert first.startswith("listening on http://"), first
        process.stdout.readline(), process.stdout.readline()
        yield first[len("listening on ") :]
    finally:
        process.terminate()
        process.wait(timeout=30)


def control(url, method, path, body=None):
    request = urllib.request.Request(
        f"{url}/_signin-spec/{path}", method=method, data=None if body is None else json.dumps(body).encode()
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def make_pool(url, pool=None, user=None, **extra):
    """A new pool with `pool` settings and the user `user` with `user` settings; (poolId, clientId)."""
    made = control(url, "POST", "pools", {"set": pool or {}})
    control(url, "PUT", f"pools/{made['poolId']}/users/{USER}", {"password": PASSWORD, "set": user or {}, **extra})
    return made["poolId"], made["clientId"]


def codes(url, pool_id):
    with urllib.request.urlopen(f"{url}/_signin-spec/messages?username={USER}&poolId={pool_id}") as answer:
        return [m["code"] for m in json.load(answer)["messages"]]


def fault(url, pool_id, operation, kind, **extra):
    control(url, "POST", "faults", {"username": USER, "poolId": pool_id, "operation": operation, "fault": kind, **extra})


class Adapter:
    """An adapter process driven over the protocol; `call` checks both messages against the schema."""

    def __init__(self, command, url):
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.next_id = 1
        self.url = url
        self.hello = self.call({"type": "hello", "protocol": 1, "endpoint": url + "/"})
        assert self.hello["type"] == "hello" and self.hello["protocol"] == 1

    def call(self, request):
        request = {"id": self.next_id, **request}
        self.next_id += 1
        VALIDATOR.validate(request)
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"the adapter answered nothing; its stderr: {self.process.stderr.read()[-2000:]}"
        answer = json.loads(line)
        VALIDATOR.validate(answer)
        assert answer["id"] == request["id"]
        if answer["type"] == "observation":
            assert answer["step"] is None or answer["step"] in self.hello["steps"], answer
        return answer

    def reset(self, pool):
        answer = self.call({"type": "reset", "poolId": pool[0], "clientId": pool[1], "username": USER, "password": PASSWORD})
        assert answer["step"] is None and answer.get("error") is None and answer["isSignedIn"] is False
        return answer

    def sign_in(self, flow, password=PASSWORD, **options):
        return self.call({"type": "signIn", "username": USER, "password": password, "options": {"authFlow": flow, **options}})

    def confirm(self, answer):
        return self.call({"type": "confirmSignIn", "answer": answer})

    def sign_out(self):
        return self.call({"type": "signOut"})

    def step(self, answer):
        """The model step an observation's step maps to."""
        return None if answer["step"] is None else self.hello["steps"][answer["step"]]

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            code = self.process.wait(timeout=30)
        else:
            code = self.process.returncode
        self.process.stdout.close()
        self.process.stderr.close()
        return code


@pytest.fixture
def boto3_adapter(server):
    adapter = Adapter(BOTO3_ADAPTER, server)
    yield adapter
    if adapter.process.poll() is None:
        adapter.process.kill()
        adapter.process.wait()


def assert_no_secret(answer, *secrets):
    text = json.dumps(answer.get("error") or {})
    for secret in secrets:
        assert secret not in text, (secret, text)


def test_hello_lists_what_the_client_does(boto3_adapter):
    hello = boto3_adapter.hello
    assert hello["client"].startswith("boto3 ")
    assert set(hello["capabilities"]["flows"]) == {"userSRP", "userPassword", "customWithSRP", "customWithoutSRP", "userAuth"}
    assert "WEB_AUTHN" not in hello["capabilities"]["challenges"]
    assert hello["steps"]["SMS_MFA"] == "confirmSignInWithSMSMFACode"


def test_password_without_mfa_then_sign_out(server, boto3_adapter):
    boto3_adapter.reset(make_pool(server))
    done = boto3_adapter.sign_in("userPassword")
    assert boto3_adapter.step(done) == "done" and done["isSignedIn"] is True and done["error"] is None
    out = boto3_adapter.sign_out()
    assert out["step"] is None and out["isSignedIn"] is False


def test_srp_without_mfa(server, boto3_adapter):
    boto3_adapter.reset(make_pool(server))
    done = boto3_adapter.sign_in("userSRP")
    assert boto3_adapter.step(done) == "done" and done["isSignedIn"] is True


def test_wrong_password_is_not_authorized_and_ends_the_flow(server, boto3_adapter):
    boto3_adapter.reset(make_pool(server))
    for flow in ("userPassword", "userSRP"):
        wrong = boto3_adapter.sign_in(flow, password="Wr0ngPassw0rd!")
        assert wrong["error"]["type"] == "NotAuthorizedException" and wrong["step"] is None
        assert wrong["isSignedIn"] is False
        assert_no_secret(wrong, "Wr0ngPassw0rd!")


def test_sms_mfa_wrong_code_stays_then_right_code_signs_in(server, boto3_adapter):
    pool = make_pool(server, {"pool.mfa": "required", "pool.sms": True}, {"user.phone": True})
    boto3_adapter.reset(pool)
    challenge = boto3_adapter.sign_in("userPassword")
    assert boto3_adapter.step(challenge) == "confirmSignInWithSMSMFACode"
    assert challenge["delivery"]["medium"] == "SMS" and challenge["delivery"]["destination"].startswith("+")
    code = codes(server, pool[0])[-1]
    wrong_code = "000000" if code != "000000" else "000001"
    wrong = boto3_adapter.confirm(wrong_code)
    assert wrong["error"]["type"] == "CodeMismatchException"
    assert boto3_adapter.step(wrong) == "confirmSignInWithSMSMFACode" and wrong["isSignedIn"] is False
    assert_no_secret(wrong, wrong_code, PASSWORD, "sess-")
    done = boto3_adapter.confirm(code)
    assert boto3_adapter.step(done) == "done" and done["isSignedIn"] is True


def test_totp_setup_shows_the_secret_and_takes_a_pyotp_code(server, boto3_adapter):
    boto3_adapter.reset(make_pool(server, {"pool.mfa": "required", "pool.totp": True}))
    setup = boto3_adapter.sign_in("userSRP")
    assert boto3_adapter.step(setup) == "continueSignInWithTOTPSetup"
    assert setup["totpUsername"] == USER
    secret = setup["totpSecret"]
    short = boto3_adapter.confirm("12ab")
    assert short["error"]["type"] == "ValidationError"  # botocore: UserCode is at least 6 characters
    assert boto3_adapter.step(short) == "continueSignInWithTOTPSetup"
    done = boto3_adapter.confirm(pyotp.TOTP(secret).now())
    assert boto3_adapter.step(done) == "done" and done["isSignedIn"] is True


def test_new_password_short_then_good(server, boto3_adapter):
    boto3_adapter.reset(make_pool(server, user={"user.status": "forceChangePassword"}))
    step = boto3_adapter.sign_in("userPassword")
    assert boto3_adapter.step(step) == "confirmSignInWithNewPassword"
    short = boto3_adapter.confirm("short")
    assert short["error"]["type"] == "InvalidPasswordException"
    assert_no_secret(short, "short", "sess-", PASSWORD)
    assert boto3_adapter.step(short) == "confirmSignInWithNewPassword"
    done = boto3_adapter.confirm("NewPassw0rd!")
    assert boto3_adapter.step(done) == "done" and done["isSignedIn"] is True


def test_custom_challenge_wrong_then_right(server, boto3_adapter):
    boto3_adapter.reset(make_pool(server))
    for flow in ("customWithoutSRP", "customWithSRP"):
        step = boto3_adapter.sign_in(flow)
        assert boto3_adapter.step(step) == "confirmSignInWithCustomChallenge", step
        wrong = boto3_adapter.confirm("wrong")
        assert wrong["error"] is None and boto3_adapter.step(wrong) == "confirmSignInWithCustomChallenge"
        done = boto3_adapter.confirm("right")
        assert boto3_adapter.step(done) == "done" and done["isSignedIn"] is True
        boto3_adapter.sign_out()


def test_user_auth_first_factor_selection_then_password(server, boto3_adapter):
    boto3_adapter.reset(make_pool(server, {"pool.allowEmailOTP": True}))
    select = boto3_adapter.sign_in("userAuth", password=None)
    assert boto3_adapter.step(select) == "continueSignInWithFirstFactorSelection"
    assert "PASSWORD" in select["options"] and "EMAIL_OTP" in select["options"]
    for factor in ("PASSWORD", "PASSWORD_SRP"):
        asked = boto3_adapter.confirm(factor)
        assert boto3_adapter.step(asked) == "confirmSignInWithPassword"
        done = boto3_adapter.confirm(PASSWORD)
        assert boto3_adapter.step(done) == "done" and done["isSignedIn"] is True
        boto3_adapter.sign_out()
        boto3_adapter.sign_in("userAuth", password=None)


def test_user_auth_email_otp_selection(server, boto3_adapter):
    pool = make_pool(server, {"pool.allowEmailOTP": True})
    boto3_adapter.reset(pool)
    boto3_adapter.sign_in("userAuth", password=None)
    otp = boto3_adapter.confirm("EMAIL_OTP")
    assert boto3_adapter.step(otp) == "confirmSignInWithOTP" and otp["delivery"]["medium"] == "EMAIL"
    done = boto3_adapter.confirm(codes(server, pool[0])[-1])
    assert boto3_adapter.step(done) == "done"


def test_mfa_selection_offers_cognito_names(server, boto3_adapter):
    pool = make_pool(server, {"pool.mfa": "required", "pool.sms": True, "pool.totp": True},
                     {"user.phone": True, "user.totpRegistered": True, "user.smsEnabled": True, "user.totpEnabled": True})
    boto3_adapter.reset(pool)
    select = boto3_adapter.sign_in("userPassword")
    assert boto3_adapter.step(select) == "continueSignInWithMFASelection"
    assert select["options"] == ["SMS_MFA", "SOFTWARE_TOKEN_MFA"]
    unknown = boto3_adapter.confirm("PUSH_MFA")
    assert unknown["error"] is not None and boto3_adapter.step(unknown) == "continueSignInWithMFASelection"
    sms = boto3_adapter.confirm("SMS_MFA")
    assert boto3_adapter.step(sms) == "confirmSignInWithSMSMFACode"


def test_a_closed_connection_is_a_network_error(server, boto3_adapter):
    pool = make_pool(server)
    boto3_adapter.reset(pool)
    fault(server, pool[0], "InitiateAuth", "reset")
    lost = boto3_adapter.sign_in("userPassword")
    assert lost["error"]["type"] == "NetworkError" and lost["step"] is None and lost["isSignedIn"] is False
    assert boto3_adapter.step(boto3_adapter.sign_in("userPassword")) == "done"


def test_a_500_without_a_body_and_an_unreadable_answer(server, boto3_adapter):
    pool = make_pool(server)
    boto3_adapter.reset(pool)
    for kind in ("status500", "unreadable"):
        fault(server, pool[0], "InitiateAuth", kind)
        broken = boto3_adapter.sign_in("userPassword")
        assert broken["error"]["type"] == "SignInError.invalidServiceResponse", broken
        assert broken["step"] is None


def test_a_cognito_error_by_its_name(server, boto3_adapter):
    pool = make_pool(server)
    boto3_adapter.reset(pool)
    fault(server, pool[0], "InitiateAuth", "error", error="TooManyRequestsException")
    limited = boto3_adapter.sign_in("userPassword")
    assert limited["error"]["type"] == "TooManyRequestsException"
    assert_no_secret(limited, PASSWORD)


def test_confirm_without_a_flow_is_an_invalid_state(server, boto3_adapter):
    boto3_adapter.reset(make_pool(server))
    answer = boto3_adapter.confirm("123456")
    assert answer["error"]["type"] == "InvalidStateError" and answer["step"] is None


def test_reset_forgets_a_signed_in_user(server, boto3_adapter):
    pool = make_pool(server)
    boto3_adapter.reset(pool)
    assert boto3_adapter.sign_in("userPassword")["isSignedIn"] is True
    boto3_adapter.reset(pool)  # checks step null, no error, isSignedIn false


def test_a_remembered_device_answers_the_device_challenges(server, boto3_adapter):
    pool = make_pool(server, {"pool.deviceTracking": "always", "pool.mfa": "required", "pool.sms": True,
                              "pool.deviceSuppressesMfa": True}, {"user.phone": True})
    boto3_adapter.reset(pool)
    first = boto3_adapter.sign_in("userSRP")
    assert boto3_adapter.step(first) == "confirmSignInWithSMSMFACode"
    assert boto3_adapter.step(boto3_adapter.confirm(codes(server, pool[0])[-1])) == "done"
    boto3_adapter.sign_out()
    second = boto3_adapter.sign_in("userSRP")  # DEVICE_SRP_AUTH inside the client; no MFA
    assert boto3_adapter.step(second) == "done" and second["isSignedIn"] is True


def test_stdin_closed_exits_0_and_bad_json_exits_65(server):
    adapter = Adapter(BOTO3_ADAPTER, server)
    assert adapter.close() == 0
    adapter = Adapter(BOTO3_ADAPTER, server)
    adapter.process.stdin.write("{not json\n")
    adapter.process.stdin.flush()
    assert adapter.process.wait(timeout=30) == 65
    assert adapter.process.stdout.read() == ""
    adapter.close()


def test_faults_at_a_challenge_keep_the_step(server, boto3_adapter):
    pool = make_pool(server, {"pool.mfa": "required", "pool.sms": True}, {"user.phone": True})
    boto3_adapter.reset(pool)
    boto3_adapter.sign_in("userPassword")
    code = codes(server, pool[0])[-1]
    for kind, error in (("reset", "NetworkError"), ("unreadable", "SignInError.invalidServiceResponse"),
                        ("status500", "SignInError.invalidServiceResponse")):
        fault(server, pool[0], "RespondToAuthChallenge", kind)
        failed = boto3_adapter.confirm(code)
        assert failed["error"]["type"] == error, failed
        assert boto3_adapter.step(failed) == "confirmSignInWithSMSMFACode"
        assert_no_secret(failed, code)
    assert boto3_adapter.step(boto3_adapter.confirm(code)) == "done"


@contextlib.contextmanager
def future_cognito():
    """A stand-in endpoint whose InitiateAuth answers a challenge no client knows (serve cannot
    send one); yields its URL."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            body = json.dumps({"ChallengeName": "FUTURE_CHALLENGE_2027", "Session": "future-session-0123456789",
                               "ChallengeParameters": {"USERNAME": USER}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_an_unknown_challenge_ends_the_flow():
    with future_cognito() as url:
        adapter = Adapter(BOTO3_ADAPTER, url)
        try:
            adapter.reset(("us-east-1_future", "futureclient"))
            for flow in ("userPassword", "customWithoutSRP", "userAuth"):
                answer = adapter.sign_in(flow)
                assert answer["error"]["type"] == "UnknownChallengeError" and answer["step"] is None
                assert "FUTURE_CHALLENGE_2027" in answer["error"]["message"]
                assert "future-session" not in answer["error"]["message"]
                assert adapter.confirm("123456")["error"]["type"] == "InvalidStateError"
        finally:
            assert adapter.close() == 0


def test_a_password_factor_not_offered_goes_back_to_the_selection(server, boto3_adapter):
    pool = make_pool(server, {"pool.authFlow": "userAuth", "pool.allowEmailOTP": True},
                     {"user.passwordSet": False})
    boto3_adapter.reset(pool)
    select = boto3_adapter.sign_in("userAuth", password=None)
    assert select["options"] == ["EMAIL_OTP"]
    asked = boto3_adapter.confirm("PASSWORD")  # no local check: the client asks for the password
    assert boto3_adapter.step(asked) == "confirmSignInWithPassword"
    refused = boto3_adapter.confirm(PASSWORD)
    assert refused["error"]["type"] == "InvalidParameterException"
    assert boto3_adapter.step(refused) == "continueSignInWithFirstFactorSelection"
    assert_no_secret(refused, PASSWORD)
    assert boto3_adapter.step(boto3_adapter.confirm("EMAIL_OTP")) == "confirmSignInWithOTP"
