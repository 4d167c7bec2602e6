#!/usr/bin/env python3
"""Record a Cognito sign-in conversation three ways at once, for `signin-spec diagnose`.

It starts `signin-spec serve --port 0 --log NAME.log.jsonl [--set VAR=VALUE …]`, puts `mitmdump`
(PyPI mitmproxy, `make mitmproxy`: .venv-mitmproxy/) in front of it as a reverse proxy on
127.0.0.1 with HAR export, and drives a client through the proxy over the adapter protocol
(docs/guide/adapters.md): the reference client (`signin-spec-adapter`), boto3's or pycognito's
adapter. Codes come from serve's outbox (`GET /_signin-spec/messages`) or, for TOTP, from pyotp
with the user's secret (printed by serve, or the secret of a TOTP setup step). Faults are set with
`POST /_signin-spec/faults`. The control calls go to serve directly, never through the proxy.

Writes, in --out (default Tests/Fixtures/recordings):
  NAME.har          the proxy's HAR 1.2 (headers trimmed to the ones a reader needs)
  NAME.log.jsonl    serve's request log (redacted; sessions as session#N)
  NAME.jsonl        the plain JSON-lines recording (schemas/cognito-recording.v1.schema.json),
                    derived from the HAR: one line per Cognito request, bodies as on the wire
  NAME.expect.json  {"model", "served", "client", "verdict": "consistent", "conversation", "steps"}

  python3 scripts/record.py --all                    # every conversation of CATALOGUE
  python3 scripts/record.py sms-mfa-wrong-code.boto3 # one of them
  python3 scripts/record.py --list
  python3 scripts/record.py NAME --client ref --set pool.mfa=required --set pool.sms=true \
      --set user.phone=true --step signIn:userPassword --step confirm:sms-wrong --step confirm:sms

Steps: signIn:FLOW[:PREFERRED][:password=P] (FLOW as in the adapter protocol; no password for
customWithoutSRP and passwordless USER_AUTH unless given), confirm:ANSWER where ANSWER is
sms | email | totp (the current code), sms-wrong | email-wrong | totp-wrong (a code that is not
it), or a literal answer; fault:OPERATION:KIND[:ERROR] (serve's /_signin-spec/faults); signOut.
"""

import argparse
import base64
import gzip
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = "models/2026-all-platforms.yaml"
PASSWORD = "Passw0rd!"
NEW_PASSWORD = "N3w-Passw0rd!"
WRONG_PASSWORD = "Wr0ng-Passw0rd!"
PREFIX = "AWSCognitoIdentityProviderService."
CLIENTS = {
    "ref": [os.path.join(ROOT, ".build/release/signin-spec-adapter")],
    "boto3": [sys.executable, os.path.join(ROOT, "adapters/boto3/adapter.py")],
    "pycognito": [sys.executable, os.path.join(ROOT, "adapters/pycognito/adapter.py")],
}
# The request and response headers kept in the HAR (the rest is transport detail).
KEEP_HEADERS = {"host", "content-type", "x-amz-target", "content-length", "content-encoding", "user-agent"}

SMS = ["pool.mfa=required", "pool.sms=true", "user.phone=true"]
TOTP = ["pool.mfa=required", "pool.totp=true", "user.totpRegistered=true"]

# Conversations: name → (description, --set values, steps, clients). The userPassword flow for the
# reference client and boto3, userSRP for pycognito (the only flow it has).
CONVERSATIONS = {
    "password": ("password sign-in without MFA", [], ["signIn:{pw}", "signOut"], ["ref", "boto3", "pycognito"]),
    "password-srp": ("SRP sign-in without MFA (USER_SRP_AUTH, PASSWORD_VERIFIER)", [], ["signIn:userSRP"], ["ref"]),
    "wrong-password": (
        "a wrong password (NotAuthorizedException), then the right one",
        [],
        ["signIn:{pw}:password=" + WRONG_PASSWORD, "signIn:{pw}"],
        ["ref", "boto3", "pycognito"],
    ),
    "sms-mfa-wrong-code": (
        "SMS MFA: a wrong code (CodeMismatchException), then the right one",
        SMS,
        ["signIn:{pw}", "confirm:sms-wrong", "confirm:sms"],
        ["ref", "boto3", "pycognito"],
    ),
    "totp-mfa": ("TOTP MFA with a registered authenticator", TOTP, ["signIn:{pw}", "confirm:totp"], ["ref", "boto3", "pycognito"]),
    "totp-setup": (
        "TOTP setup on first sign-in (pool.mfa required, TOTP only): MFA_SETUP, AssociateSoftwareToken, "
        "VerifySoftwareToken, RespondToAuthChallenge MFA_SETUP",
        ["pool.mfa=required", "pool.totp=true"],
        ["signIn:{pw}", "confirm:totp"],
        ["ref", "boto3"],
    ),
    "mfa-selection": (
        "SELECT_MFA_TYPE (SMS and TOTP enabled, no preference): SMS_MFA chosen, then its code",
        [
            "pool.mfa=optional", "pool.sms=true", "pool.totp=true", "user.phone=true", "user.totpRegistered=true",
            "user.smsEnabled=true", "user.totpEnabled=true",
        ],
        ["signIn:{pw}", "confirm:SMS_MFA", "confirm:sms"],
        ["ref", "boto3"],
    ),
    "new-password": (
        "NEW_PASSWORD_REQUIRED (an administrator-created user) answered with a new password",
        ["user.status=forceChangePassword"],
        ["signIn:{pw}", "confirm:" + NEW_PASSWORD],
        ["ref", "boto3", "pycognito"],
    ),
    "custom": (
        "custom auth without SRP (CUSTOM_AUTH): a wrong answer, then the right one",
        [],
        ["signIn:customWithoutSRP", "confirm:wrong", "confirm:right"],
        ["ref", "boto3"],
    ),
    "user-auth-select": (
        "USER_AUTH without a preferred challenge: SELECT_CHALLENGE, EMAIL_OTP chosen, then its code",
        ["pool.allowEmailOTP=true"],
        ["signIn:userAuth:password=", "confirm:EMAIL_OTP", "confirm:email"],
        ["ref", "boto3"],
    ),
    "user-auth-password": (
        "USER_AUTH with PREFERRED_CHALLENGE=PASSWORD",
        [],
        ["signIn:userAuth:PASSWORD"],
        ["ref", "boto3"],
    ),
    "unconfirmed": (
        "an unconfirmed user (UserNotConfirmedException)",
        ["user.status=unconfirmed"],
        ["signIn:{pw}"],
        ["ref", "boto3", "pycognito"],
    ),
    "fault-reset-retry": (
        "SMS MFA; the code's RespondToAuthChallenge gets a reset connection (no answer), then the retry signs in",
        SMS,
        ["signIn:{pw}", "fault:RespondToAuthChallenge:reset", "confirm:sms", "confirm:sms"],
        ["ref", "boto3"],
    ),
    "fault-not-authorized": (
        "SMS MFA; the code's RespondToAuthChallenge answered NotAuthorizedException (a served fault): the flow ends",
        SMS,
        ["signIn:{pw}", "fault:RespondToAuthChallenge:error:NotAuthorizedException", "confirm:sms"],
        ["ref", "boto3"],
    ),
}

# Conversations of several users of one pool (serve --users FILE), interleaved: each step names its
# user ("alice:signIn:userPassword"); each user has a client of its own.
MULTI_USER = {
    "two-users-interleaved": (
        "two users of one pool signing in at the same time: alice with SMS MFA (a wrong code, then the "
        "right one), bob without MFA, their requests interleaved",
        ["pool.mfa=optional", "pool.sms=true"],
        {"alice": {"user.phone": True, "user.smsEnabled": True, "user.preferred": "sms"}, "bob": {}},
        ["alice:signIn:userPassword", "bob:signIn:userPassword", "alice:confirm:sms-wrong", "bob:signOut",
         "alice:confirm:sms"],
        ["ref", "boto3"],
    ),
}
USER_PASSWORDS = {"alice": "Alice-Passw0rd!", "bob": "Bob-Passw0rd!"}


def catalogue():
    """Every recording: NAME.CLIENT → (description, sets, steps, client)."""
    result = {}
    for name, (description, sets, steps, clients) in CONVERSATIONS.items():
        for client in clients:
            flow = "userSRP" if client == "pycognito" else "userPassword"
            result[f"{name}.{client}"] = (description, sets, [s.replace("{pw}", flow) for s in steps], client)
    for name, (description, sets, users, steps, clients) in MULTI_USER.items():
        for client in clients:
            result[f"{name}.{client}"] = (description, sets, steps, client, users)
    return result


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"error: nothing listens on 127.0.0.1:{port} after {seconds} s")


class Serve:
    def __init__(self, binary, sets, log, seed, users_file=None):
        command = [binary, "serve", os.path.join(ROOT, MODEL), "--port", "0", "--log", log, "--seed", str(seed)]
        if users_file:
            command += ["--users", users_file]
        for s in sets:
            command += ["--set", s]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"error: serve exited: {self.process.stderr.read()}")
            self.lines.append(line.strip())
            if line.startswith("client id:"):
                break
        self.url = self.lines[0].split()[-1]
        self.port = int(self.url.rsplit(":", 1)[1])
        self.pool_id = self.lines[1].split(": ")[1]
        self.client_id = self.lines[2].split(": ")[1]
        # The "totp secret (user): …" line, when there is one, comes right after.
        self.totp_secret = None
        if any(s.startswith("user.totpRegistered=true") for s in sets):
            line = self.process.stdout.readline().strip()
            self.lines.append(line)
            self.totp_secret = line.split(": ")[1]

    def control(self, method, path, body=None):
        request = urllib.request.Request(
            f"{self.url}/_signin-spec/{path}", method=method, data=None if body is None else json.dumps(body).encode()
        )
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    def code(self, medium, username="user"):
        messages = [m for m in self.control("GET", f"messages?username={username}")["messages"]
                    if m["medium"] == medium]
        if not messages:
            raise SystemExit(f"error: no {medium} code in the outbox")
        return messages[-1]["code"]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)


class Proxy:
    """mitmdump with HAR export: a reverse proxy in front of serve (the client's endpoint is the
    proxy), or, with forward=True, an ordinary HTTP proxy the client reaches through HTTP_PROXY
    (its endpoint stays serve's own URL: pycognito checks the tokens' issuer against it)."""

    def __init__(self, upstream_port, har, forward=False):
        mitmdump = os.path.join(ROOT, ".venv-mitmproxy/bin/mitmdump")
        if not os.path.exists(mitmdump):
            raise SystemExit("error: no .venv-mitmproxy/bin/mitmdump; run make mitmproxy")
        self.confdir = tempfile.mkdtemp(prefix="record-mitm-")
        self.port = free_port()
        self.process = subprocess.Popen(
            [mitmdump, "--mode", "regular" if forward else f"reverse:http://127.0.0.1:{upstream_port}",
             "--listen-host", "127.0.0.1",
             "--listen-port", str(self.port), "--set", f"hardump={har}", "--set", f"confdir={self.confdir}", "-q"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        wait_listening(self.port)

    def stop(self):
        # SIGINT: mitmdump writes the HAR on shutdown.
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=20)
        finally:
            shutil.rmtree(self.confdir, ignore_errors=True)


class Adapter:
    def __init__(self, command, proxy_url=None):
        env = dict(os.environ)
        for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy",
                     "ALL_PROXY", "all_proxy"):
            env.pop(name, None)
        if proxy_url:
            env["HTTP_PROXY"] = env["http_proxy"] = proxy_url
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.next_id = 1

    def send(self, message):
        message = {"id": self.next_id, **message}
        self.next_id += 1
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"error: the adapter exited on {message}")
        answer = json.loads(line)
        print(f"  → {json.dumps(message)}\n  ← {line.strip()}", file=sys.stderr)
        return answer

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=20)


def wrong(code):
    return f"{(int(code) + 1) % 1_000_000:06d}"


def run_steps(serve, adapters, steps, passwords=None):
    """Runs the conversation; returns the observations. `adapters` maps a username to its client
    (one user "user", or the users of a multi-user conversation, named before each step)."""
    observations = []
    lasts = {}
    for step in steps:
        username = "user"
        if step.split(":", 1)[0] in adapters:
            username, step = step.split(":", 1)
        adapter = adapters[username]
        last = lasts.get(username, {})
        password_of_user = (passwords or {}).get(username, PASSWORD)
        kind, _, rest = step.partition(":")
        if kind == "signIn":
            parts = rest.split(":")
            options = {"authFlow": parts[0]}
            password = None if parts[0] in ("customWithoutSRP", "userAuth") else password_of_user
            for part in parts[1:]:
                if part.startswith("password="):
                    password = part[len("password="):] or None
                else:
                    options["preferredFirstFactor"] = part
                    password = password_of_user if part in ("PASSWORD", "PASSWORD_SRP") else password
            last = adapter.send({"type": "signIn", "username": username, "password": password, "options": options})
        elif kind == "confirm":
            if rest in ("sms", "sms-wrong", "email", "email-wrong"):
                code = serve.code("SMS" if rest.startswith("sms") else "EMAIL", username)
                answer = wrong(code) if rest.endswith("-wrong") else code
            elif rest in ("totp", "totp-wrong"):
                import pyotp

                secret = last.get("totpSecret") or serve.totp_secret
                code = pyotp.TOTP(secret).now()
                answer = wrong(code) if rest.endswith("-wrong") else code
            else:
                answer = rest
            last = adapter.send({"type": "confirmSignIn", "answer": answer})
        elif kind == "fault":
            operation, fault, *error = rest.split(":")
            body = {"username": username, "operation": operation, "fault": fault, "count": 1}
            if error:
                body["error"] = error[0]
            serve.control("POST", "faults", body)
            continue
        elif kind == "signOut":
            last = adapter.send({"type": "signOut"})
        else:
            raise SystemExit(f"error: unknown step {step}")
        lasts[username] = last
        observations.append(last)
    return observations


def body_text(content):
    """A HAR postData/content body as text: base64 decoded, gzip inflated."""
    if content is None or "text" not in content:
        return None
    raw = content["text"]
    data = base64.b64decode(raw) if content.get("encoding") == "base64" else raw.encode()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode()


def header(headers, name):
    for h in headers:
        if h["name"].lower() == name.lower():
            return h["value"]
    return None


def jsonl_from_har(har, prefixed):
    """The plain recording: one object per Cognito request of the HAR, in order."""
    lines = []
    for entry in har["log"]["entries"]:
        target = header(entry["request"]["headers"], "X-Amz-Target") or ""
        if not target.startswith(PREFIX):
            continue
        operation = target if prefixed else target[len(PREFIX):]
        request = json.loads(body_text(entry["request"].get("postData")) or "{}")
        response = entry.get("response") or {}
        status = response.get("status")
        text = body_text(response.get("content"))
        line = {"operation": operation, "request": request}
        if not status or status <= 0 or (status == 502 and "x-amzn-RequestId" not in
                                          {h["name"] for h in response.get("headers", [])}):
            # No answer from the server: the proxy's own 502 (or nothing).
            line.update({"response": None, "status": None, "error": "reset"})
        else:
            try:
                body = json.loads(text) if text else None
            except json.JSONDecodeError:
                body = None
            line.update({"response": body, "status": status})
        line["time"] = entry["startedDateTime"]
        lines.append(line)
    return lines


def trim_har(har):
    """Drops transport-only headers and the proxy's timings detail; keeps HAR 1.2's required members."""
    for entry in har["log"]["entries"]:
        for part in ("request", "response"):
            message = entry.get(part)
            if message:
                message["headers"] = [h for h in message["headers"] if h["name"].lower() in KEEP_HEADERS]
        # mitmdump writes "content": {} for a request that got no answer (with "_error"); HAR 1.2
        # requires content.size and content.mimeType.
        content = entry.get("response", {}).get("content")
        if content is not None:
            content.setdefault("size", 0)
            content.setdefault("mimeType", "")
    return har


def record(name, description, sets, steps, client, out, seed, use_proxy=True, prefixed=False, users=None):
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, name)
    binary = os.path.join(ROOT, ".build/release/signin-spec")
    print(f"{name}: {description}", file=sys.stderr)
    users_file = None
    if users:
        users_file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump({"users": [{"username": u, "password": USER_PASSWORDS[u], "set": settings}
                             for u, settings in users.items()]}, users_file)
        users_file.close()
    serve = Serve(binary, sets, base + ".log.jsonl", seed, users_file and users_file.name)
    if users_file:
        os.unlink(users_file.name)
    har_path = base + ".har"
    forward = client == "pycognito"
    proxy = Proxy(serve.port, har_path, forward) if use_proxy else None
    usernames = list(users) if users else ["user"]
    adapters = {u: Adapter(CLIENTS[client], f"http://127.0.0.1:{proxy.port}" if proxy and forward else None)
                for u in usernames}
    passwords = {u: USER_PASSWORDS[u] for u in usernames} if users else None
    try:
        endpoint = f"http://127.0.0.1:{proxy.port}/" if proxy and not forward else serve.url + "/"
        for username, adapter in adapters.items():
            hello = adapter.send({"type": "hello", "protocol": 1, "endpoint": endpoint})
            adapter.send({"type": "reset", "poolId": serve.pool_id, "clientId": serve.client_id,
                          "username": username, "password": (passwords or {}).get(username, PASSWORD)})
        observations = run_steps(serve, adapters, steps, passwords)
    finally:
        for adapter in adapters.values():
            adapter.close()
        if proxy:
            proxy.stop()
        serve.stop()
    if proxy:
        with open(har_path) as f:
            har = trim_har(json.load(f))
        with open(har_path, "w") as f:
            json.dump(har, f, indent=1)
            f.write("\n")
        with open(base + ".jsonl", "w") as f:
            for line in jsonl_from_har(har, prefixed):
                f.write(json.dumps(line) + "\n")
    expect = {
        "model": MODEL,
        "served": {k: parse_value(v) for k, v in (s.split("=", 1) for s in sets)},
        "client": hello.get("client", client),
        "verdict": "consistent",
        "conversation": description,
        "steps": steps,
        **({"users": users} if users else {}),
        "observed": [o.get("step") if not o.get("error") else o["error"]["type"] for o in observations],
    }
    with open(base + ".expect.json", "w") as f:
        json.dump(expect, f, indent=2)
        f.write("\n")
    return expect


def parse_value(text):
    return {"true": True, "false": False}.get(text, int(text) if text.isdigit() else text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--client", choices=sorted(CLIENTS))
    parser.add_argument("--set", action="append", default=[], dest="sets")
    parser.add_argument("--step", action="append", default=[], dest="steps")
    parser.add_argument("--out", default=os.path.join(ROOT, "Tests/Fixtures/recordings"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-proxy", action="store_true", help="no mitmdump: serve's log only")
    parser.add_argument("--prefixed", action="store_true",
                        help="write operations with the AWSCognitoIdentityProviderService. prefix in NAME.jsonl")
    args = parser.parse_args()
    known = catalogue()
    if args.list:
        for name, (description, sets, steps, client, *_) in known.items():
            print(f"{name}\t{description}\t{' '.join(sets)}\t{' '.join(steps)}")
        return
    if args.steps:
        if len(args.names) != 1 or not args.client:
            parser.error("--step needs one NAME and --client")
        record(args.names[0], "ad hoc", args.sets, args.steps, args.client, args.out, args.seed,
               not args.no_proxy, args.prefixed)
        return
    names = list(known) if args.all else args.names
    for name in names:
        if name not in known:
            parser.error(f"unknown recording {name} (see --list)")
        description, sets, steps, client, *users = known[name]
        # pycognito's recordings spell the operation with its prefix, the others without.
        record(name, description, sets, steps, client, args.out, args.seed, not args.no_proxy,
               args.prefixed or client == "pycognito", users[0] if users else None)


if __name__ == "__main__":
    main()
