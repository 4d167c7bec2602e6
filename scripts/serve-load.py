#!/usr/bin/env python3
"""Load generator for `signin-spec serve`: throughput, latency and memory of its sign-ins.

Usage:
  serve-load.py [--scenario password|srp-totp]... [--clients C]... [--count N] [--seconds S]
                [--signins-per-user 1|2|3] [--binary PATH] [--clock ISO8601]
  serve-load.py --memory N [--clients C] [--seconds S] [--binary PATH]

Each run (a scenario at a client count) starts its own `signin-spec serve` on 127.0.0.1 with
`--port 0` (reading its start-up lines from its stdout), drives it from this process, and stops
it with SIGTERM (exit 0 expected; SIGKILL after 30 s). Repeating --scenario or --clients runs
every combination, one fresh server each. Scenarios:

  password   one USER_PASSWORD_AUTH InitiateAuth answered with tokens (1 request per sign-in),
             the default user of a default pool.
  srp-totp   InitiateAuth USER_SRP_AUTH, the PASSWORD_VERIFIER answer, the SOFTWARE_TOKEN_MFA
             answer (3 requests per sign-in) on a pool started with pool.mfa=required and
             pool.totp=true and the server clock fixed (--clock). Before the timing starts,
             N users (N / --signins-per-user), each with its own TOTP secret, are created through
             PUT /_signin-spec/pools/us-east-1_sim/users/<name>; each signs in once, or up to
             3 times with the codes of steps t, t-1, t+1 (the pool takes a TOTP code once per
             secret and 30 s step, one step either side). The client's SRP math is
             pycognito's AWSSRP (get_auth_params, process_challenge), without its boto3 client;
             the requests are sent here with http.client.

Bounds: a run stops at --count sign-ins (default 2000) or after --seconds (default 60) of load,
whichever comes first; every request has a 30 s socket timeout. --clients C threads (default 1),
each with its own HTTP/1.1 keep-alive connection, take sign-ins from one shared counter.

Timing: a request's latency is its HTTP round trip (send to last byte read); a sign-in's is from
its first request to its last answer, including the client's SRP math between them (and for
srp-totp the AWSSRP object, whose A = g^a mod N is computed at construction).
CPU: the server's (/proc/<pid>/stat utime+stime), this process's (os.times) and all other
processes' (/proc/stat busy time minus both) over the run, in percent of one core, to show which
side is the bottleneck and what ran beside.

--memory N: N USER_PASSWORD_AUTH sign-ins in three phases (to 10 %, 50 % and 100 % of N), the
server's VmRSS (/proc/<pid>/status) read before the first and after each phase (all answers in,
no request in flight). Bounded by --seconds as well (default 600 with --memory): a phase the
time limit cuts short reports the count it reached.

Output per run: a human line, then the same as one JSON object on a line of its own (with
p50/p99 per step and of the client's SRP math).
A sign-in that fails (a non-200 answer, an unexpected answer, a connection error) is counted and
the first 5 distinct failures are printed with status and body. Exit 1 if any sign-in failed,
64 for bad usage, 2 if the server did not start.
"""
import argparse
import datetime
import http.client
import json
import os
import pathlib
import queue
import signal
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_BINARY = os.environ.get("SIGNIN_SPEC_BIN", str(ROOT / ".build" / "release" / "signin-spec"))
POOL_ID = "us-east-1_sim"
CLIENT_ID = "signinspecsimulatedclient"
USER, PASSWORD = "user", "Passw0rd!"
TARGET = "AWSCognitoIdentityProviderService."
TIMEOUT = 30.0


class Server:
    """`signin-spec serve --port 0` as a child process: host, port, pid; stop() sends SIGTERM."""

    def __init__(self, binary, settings, options=()):
        command = [binary, "serve", "--port", "0", "--seed", "1", *options]
        for setting in settings:
            command += ["--set", setting]
        self.command = command
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        # The three start-up lines, read by a daemon thread that then drains the rest (TOTP
        # secret lines, anything later) so the server never blocks on a full pipe. A server that
        # has not printed them within 30 s is killed.
        lines = queue.Queue()

        def read():
            for line in self.process.stdout:
                lines.put(line.rstrip("\n"))
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        self.lines = []
        deadline = time.monotonic() + TIMEOUT
        while len(self.lines) < 3:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.process.kill()
                self.process.wait()
                raise RuntimeError(f"serve printed no start-up lines within {TIMEOUT:.0f} s: {command}") from None
            if line is None:
                self.process.wait(timeout=TIMEOUT)
                raise RuntimeError(f"serve exited ({self.process.returncode}) before its start-up lines: {command}")
            self.lines.append(line)
        if not self.lines[0].startswith("listening on http://"):
            self.stop()
            raise RuntimeError(f"unexpected start-up line: {self.lines[0]!r}")
        address = self.lines[0][len("listening on http://") :]
        self.host, port = address.rsplit(":", 1)
        self.port = int(port)
        self.pid = self.process.pid

    def cpu_seconds(self):
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # After the ")" of comm: field 3 is index 0, so utime (14) and stime (15) are 11 and 12.
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return None

    def threads(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
        return None

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return "killed after 30 s"


class Failure(Exception):
    def __init__(self, what, status=None, body=None):
        super().__init__(what)
        self.what, self.status, self.body = what, status, body

    def key(self):
        return (self.what, self.status, self.body)


class Client:
    """One keep-alive HTTP/1.1 connection; call() records each request's latency."""

    def __init__(self, server):
        self.server = server
        self.connection = None
        self.request_ms = []
        self.step_ms = {}
        self.math_ms = []

    def _connect(self):
        self.connection = http.client.HTTPConnection(self.server.host, self.server.port, timeout=TIMEOUT)

    def raw(self, method, path, body, headers):
        if self.connection is None:
            self._connect()
        data = json.dumps(body).encode()
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()
            self.connection = None
            raise Failure(f"{type(error).__name__}: {error}") from error
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
            self.connection = None
        return response.status, payload

    def call(self, operation, body, step=None):
        headers = {"Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": TARGET + operation}
        start = time.perf_counter()
        status, payload = self.raw("POST", "/", body, headers)
        elapsed = (time.perf_counter() - start) * 1000
        self.request_ms.append(elapsed)
        self.step_ms.setdefault(step or operation, []).append(elapsed)
        text = payload.decode("utf-8", "replace")
        if status != 200:
            raise Failure(f"{operation}: HTTP {status}", status, text)
        try:
            return json.loads(text)
        except ValueError:
            raise Failure(f"{operation}: not JSON", status, text) from None

    def close(self):
        if self.connection is not None:
            self.connection.close()


def expect(condition, operation, answer):
    if not condition:
        raise Failure(f"{operation}: unexpected answer", 200, json.dumps(answer)[:2000])


def password_signin(client, _index, _context):
    answer = client.call(
        "InitiateAuth",
        {"AuthFlow": "USER_PASSWORD_AUTH", "ClientId": CLIENT_ID,
         "AuthParameters": {"USERNAME": USER, "PASSWORD": PASSWORD}},
        "InitiateAuth USER_PASSWORD_AUTH",
    )
    expect("AccessToken" in answer.get("AuthenticationResult", {}), "InitiateAuth", answer)
    return 1


class NoBoto3:
    """Stands in for AWSSRP's boto3 client: the math helpers never call it."""


def srp_totp_signin(client, index, context):
    AWSSRP = context["AWSSRP"]
    per_user = context["per_user"]
    username, secret = context["users"][index // per_user]
    start = time.perf_counter()
    srp = AWSSRP(username=username, password=PASSWORD, pool_id=POOL_ID, client_id=CLIENT_ID, client=NoBoto3())
    auth_params = srp.get_auth_params()
    math_ms = (time.perf_counter() - start) * 1000
    first = client.call(
        "InitiateAuth", {"AuthFlow": "USER_SRP_AUTH", "ClientId": CLIENT_ID, "AuthParameters": auth_params},
        "InitiateAuth USER_SRP_AUTH",
    )
    expect(first.get("ChallengeName") == "PASSWORD_VERIFIER", "InitiateAuth", first)
    start = time.perf_counter()
    responses = srp.process_challenge(first["ChallengeParameters"], auth_params)
    math_ms += (time.perf_counter() - start) * 1000
    client.math_ms.append(math_ms)
    verifier = {"ClientId": CLIENT_ID, "ChallengeName": "PASSWORD_VERIFIER", "ChallengeResponses": responses}
    if "Session" in first:
        verifier["Session"] = first["Session"]
    second = client.call("RespondToAuthChallenge", verifier, "RespondToAuthChallenge PASSWORD_VERIFIER")
    expect(second.get("ChallengeName") == "SOFTWARE_TOKEN_MFA", "RespondToAuthChallenge PASSWORD_VERIFIER", second)
    code = context["totp"](secret, (0, -1, 1)[index % per_user])
    third = client.call(
        "RespondToAuthChallenge",
        {"ClientId": CLIENT_ID, "ChallengeName": "SOFTWARE_TOKEN_MFA", "Session": second["Session"],
         "ChallengeResponses": {"USERNAME": second["ChallengeParameters"].get("USERNAME", username),
                                "SOFTWARE_TOKEN_MFA_CODE": code}},
        "RespondToAuthChallenge SOFTWARE_TOKEN_MFA",
    )
    expect("AccessToken" in third.get("AuthenticationResult", {}), "RespondToAuthChallenge SOFTWARE_TOKEN_MFA", third)
    return 3


def machine_busy_seconds():
    """CPU seconds all processes of the machine have used (/proc/stat: all but idle and iowait)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def read_loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def percentile(values, p):
    """Nearest-rank percentile of `values` (milliseconds), None for none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return round(ordered[int(rank) - 1], 3)


class Run:
    """Drives `signin` from `clients` threads until `count` sign-ins are taken or `deadline`."""

    def __init__(self, server, signin, context, clients):
        self.server, self.signin, self.context = server, signin, context
        self.clients = [Client(server) for _ in range(clients)]
        self.lock = threading.Lock()
        self.next_index = 0
        self.signin_ms = []
        self.requests = 0
        self.failures = {}
        self.failed = 0

    def phase(self, count, deadline):
        """Runs until `count` sign-ins in all have been taken, or time.monotonic() >= deadline."""

        def worker(client):
            while True:
                with self.lock:
                    if self.next_index >= count or time.monotonic() >= deadline:
                        return
                    index = self.next_index
                    self.next_index += 1
                before = len(client.request_ms)
                start = time.perf_counter()
                try:
                    self.signin(client, index, self.context)
                    elapsed = (time.perf_counter() - start) * 1000
                    with self.lock:
                        self.signin_ms.append(elapsed)
                except Failure as failure:
                    with self.lock:
                        self.failed += 1
                        self.failures[failure.key()] = self.failures.get(failure.key(), 0) + 1
                with self.lock:
                    self.requests += len(client.request_ms) - before

        threads = [threading.Thread(target=worker, args=(client,), daemon=True) for client in self.clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def close(self):
        for client in self.clients:
            client.close()

    def request_ms(self):
        return [ms for client in self.clients for ms in client.request_ms]

    def step_ms(self):
        steps = {}
        for client in self.clients:
            for step, values in client.step_ms.items():
                steps.setdefault(step, []).extend(values)
        return {step: {"p50": percentile(v, 50), "p99": percentile(v, 99)} for step, v in steps.items()}

    def math_ms(self):
        values = [ms for client in self.clients for ms in client.math_ms]
        return {"p50": percentile(values, 50), "p99": percentile(values, 99)} if values else None


def create_totp_users(server, count):
    """count users u0…, each with its own base32 TOTP secret, through the control endpoint."""
    import pyotp

    users = [(f"load{i}", pyotp.random_base32()) for i in range(count)]
    failures = []

    def put(chunk):
        client = Client(server)
        for username, secret in chunk:
            try:
                status, payload = client.raw(
                    "PUT", f"/_signin-spec/pools/{POOL_ID}/users/{username}",
                    {"password": PASSWORD, "set": {"user.totpRegistered": True, "user.totpEnabled": True},
                     "totpSecret": secret},
                    {"Content-Type": "application/json"},
                )
            except Failure as failure:
                failures.append((username, None, failure.what))
                continue
            if status != 200:
                failures.append((username, status, payload.decode("utf-8", "replace")))
        client.close()

    threads = [threading.Thread(target=put, args=(users[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise RuntimeError(f"creating users failed: {failures[:3]}")
    return users


def report_failures(run):
    lines = []
    for (what, status, body), times in sorted(run.failures.items(), key=lambda item: -item[1])[:5]:
        lines.append({"what": what, "status": status, "body": body, "times": times})
    return lines


def throughput(args, scenario, clients):
    clock = args.clock
    settings, options = [], []
    if scenario == "srp-totp":
        settings = ["pool.mfa=required", "pool.totp=true"]
        options = ["--clock", clock]
    loadavg = read_loadavg()
    server = Server(args.binary, settings, options)
    try:
        context = {}
        setup_s = 0.0
        if scenario == "srp-totp":
            import pyotp
            from pycognito.aws_srp import AWSSRP

            context["AWSSRP"] = AWSSRP
            at = datetime.datetime.fromisoformat(clock.replace("Z", "+00:00"))
            started = time.monotonic()
            context["per_user"] = args.signins_per_user
            context["users"] = create_totp_users(server, -(-args.count // args.signins_per_user))
            setup_s = time.monotonic() - started
            context["totp"] = lambda secret, step: pyotp.TOTP(secret).at(at + datetime.timedelta(seconds=30 * step))
            signin = srp_totp_signin
        else:
            signin = password_signin
        run = Run(server, signin, context, clients)
        rss_before = server.rss_kib()
        cpu_server, cpu_self, cpu_all = server.cpu_seconds(), sum(os.times()[:2]), machine_busy_seconds()
        start = time.monotonic()
        run.phase(args.count, start + args.seconds)
        wall = time.monotonic() - start
        cpu_server, cpu_self = server.cpu_seconds() - cpu_server, sum(os.times()[:2]) - cpu_self
        cpu_others = machine_busy_seconds() - cpu_all - cpu_server - cpu_self
        rss_after, threads = server.rss_kib(), server.threads()
        run.close()
    finally:
        status = server.stop()
    done = len(run.signin_ms)
    result = {
        "scenario": scenario,
        "clients": clients,
        "signins": done,
        "failed": run.failed,
        "requests": run.requests,
        "seconds": round(wall, 3),
        "bounded_by": "count" if run.next_index >= args.count else "seconds",
        "limits": {"count": args.count, "seconds": args.seconds},
        "signins_per_s": round(done / wall, 1),
        "requests_per_s": round(run.requests / wall, 1),
        "signin_ms": {"p50": percentile(run.signin_ms, 50), "p99": percentile(run.signin_ms, 99)},
        "request_ms": {"p50": percentile(run.request_ms(), 50), "p99": percentile(run.request_ms(), 99)},
        "step_ms": run.step_ms(),
        "client_srp_math_ms": run.math_ms(),
        "server_cpu_pct": round(100 * cpu_server / wall, 1),
        "loadgen_cpu_pct": round(100 * cpu_self / wall, 1),
        "others_cpu_pct": round(100 * max(cpu_others, 0) / wall, 1),
        "cores": os.cpu_count(),
        "loadavg_before": loadavg,
        "server_rss_kib": {"before": rss_before, "after": rss_after},
        "server_threads": threads,
        "setup_seconds": round(setup_s, 3),
        "signins_per_user": args.signins_per_user if scenario == "srp-totp" else None,
        "server_exit": status,
        "failures": report_failures(run),
    }
    print(
        f"{scenario}, {clients} client(s): {done} sign-ins ({run.failed} failed) in {wall:.1f} s"
        f" [{result['bounded_by']}]: {result['signins_per_s']} sign-ins/s, {result['requests_per_s']} requests/s;"
        f" sign-in p50 {result['signin_ms']['p50']} ms p99 {result['signin_ms']['p99']} ms;"
        f" request p50 {result['request_ms']['p50']} ms p99 {result['request_ms']['p99']} ms;"
        f" CPU server {result['server_cpu_pct']} %, load generator {result['loadgen_cpu_pct']} %,"
        f" other processes {result['others_cpu_pct']} % (of {result['cores']} x 100 %);"
        f" server RSS {rss_before} -> {rss_after} KiB; exit {status}"
    )
    for failure in result["failures"]:
        print(f"  failure x{failure['times']}: {failure['what']} (HTTP {failure['status']}): {failure['body']}")
    print(json.dumps(result), flush=True)
    return result


def memory(args):
    loadavg = read_loadavg()
    server = Server(args.binary, [])
    try:
        run = Run(server, password_signin, {}, args.clients)
        samples = [{"signins": 0, "rss_kib": server.rss_kib()}]
        start = time.monotonic()
        deadline = start + args.seconds
        cpu_server, cpu_self, cpu_all = server.cpu_seconds(), sum(os.times()[:2]), machine_busy_seconds()
        for fraction in (10, 50, 100):
            run.phase(args.memory * fraction // 100, deadline)
            samples.append({"target_pct": fraction, "signins": len(run.signin_ms), "failed": run.failed,
                            "seconds": round(time.monotonic() - start, 1), "rss_kib": server.rss_kib()})
        wall = time.monotonic() - start
        cpu_server, cpu_self = server.cpu_seconds() - cpu_server, sum(os.times()[:2]) - cpu_self
        cpu_others = machine_busy_seconds() - cpu_all - cpu_server - cpu_self
        run.close()
    finally:
        status = server.stop()
    first, last = samples[1], samples[-1]
    grown = last["rss_kib"] - first["rss_kib"]
    between = last["signins"] - first["signins"]
    result = {
        "scenario": "memory",
        "clients": args.clients,
        "target": args.memory,
        "signins": len(run.signin_ms),
        "failed": run.failed,
        "seconds": round(wall, 1),
        "bounded_by": "count" if len(run.signin_ms) + run.failed >= args.memory else "seconds",
        "signins_per_s": round(len(run.signin_ms) / wall, 1),
        "samples": samples,
        "kib_per_1000_signins_after_10pct": round(1000 * grown / between, 2) if between else None,
        "server_cpu_pct": round(100 * cpu_server / wall, 1),
        "loadgen_cpu_pct": round(100 * cpu_self / wall, 1),
        "others_cpu_pct": round(100 * max(cpu_others, 0) / wall, 1),
        "cores": os.cpu_count(),
        "loadavg_before": loadavg,
        "server_exit": status,
        "failures": report_failures(run),
    }
    shown = ", ".join(f"{s['signins']}: {s['rss_kib']} KiB" for s in samples)
    print(
        f"memory, {args.clients} client(s), USER_PASSWORD_AUTH: {result['signins']} sign-ins ({run.failed} failed)"
        f" in {wall:.1f} s [{result['bounded_by']}]; server VmRSS after sign-ins {shown};"
        f" {result['kib_per_1000_signins_after_10pct']} KiB per 1,000 sign-ins from the 10 % sample on;"
        f" CPU server {result['server_cpu_pct']} %, load generator {result['loadgen_cpu_pct']} %,"
        f" other processes {result['others_cpu_pct']} % (of {result['cores']} x 100 %); exit {status}"
    )
    for failure in result["failures"]:
        print(f"  failure x{failure['times']}: {failure['what']} (HTTP {failure['status']}): {failure['body']}")
    print(json.dumps(result), flush=True)
    return result


def main(argv):
    parser = argparse.ArgumentParser(
        prog="serve-load.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", action="append", choices=["password", "srp-totp"],
                        help="repeatable; default: both")
    parser.add_argument("--clients", action="append", type=int, help="concurrent clients, repeatable; default 1")
    parser.add_argument("--count", type=int, default=2000, help="sign-ins per run at most (default 2000)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds of load per run at most (default 60; 600 with --memory)")
    parser.add_argument("--signins-per-user", type=int, default=1, choices=[1, 2, 3],
                        help="srp-totp: sign-ins per user (codes of steps t, t-1, t+1; default 1)")
    parser.add_argument("--memory", type=int, metavar="N", help="the memory run: N USER_PASSWORD_AUTH sign-ins")
    parser.add_argument("--binary", default=DEFAULT_BINARY, help="signin-spec (default $SIGNIN_SPEC_BIN or .build/release/signin-spec)")
    parser.add_argument("--clock", default="2026-01-01T00:00:00Z", help="the server's fixed clock for srp-totp")
    try:
        args = parser.parse_args(argv[1:])
    except SystemExit as exit:
        return 64 if exit.code else 0
    clients = args.clients or [1]
    if any(c < 1 for c in clients) or args.count < 1 or (args.memory is not None and args.memory < 10):
        print("error: --clients and --count must be at least 1, --memory at least 10", file=sys.stderr)
        return 64
    if args.seconds is None:
        args.seconds = 600.0 if args.memory is not None else 60.0
    if args.seconds <= 0:
        print("error: --seconds must be positive", file=sys.stderr)
        return 64
    if not os.access(args.binary, os.X_OK):
        print(f"error: no signin-spec binary at {args.binary} (make build, or --binary)", file=sys.stderr)
        return 64
    results = []
    try:
        if args.memory is not None:
            if len(clients) > 1 or args.scenario:
                print("error: --memory takes one --clients and no --scenario", file=sys.stderr)
                return 64
            args.clients = clients[0]
            results.append(memory(args))
        else:
            for scenario in args.scenario or ["password", "srp-totp"]:
                for c in clients:
                    results.append(throughput(args, scenario, c))
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    bad = [r for r in results if r["failed"] or r["server_exit"] != 0]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
