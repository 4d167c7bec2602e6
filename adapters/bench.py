#!/usr/bin/env python3
"""Calls per second of a client adapter: N conversations of reset + signIn + signOut
(USER_PASSWORD_AUTH, no MFA, or --flow) against `signin-spec serve --port 0`, as the fuzzer
drives them (one request in flight). Prints the calls, the wall time, calls/s and the CPU
seconds the adapter used.

    python3 adapters/bench.py --adapter "python3 adapters/boto3/adapter.py" --count 3000
"""

import argparse
import json
import pathlib
import resource
import shlex
import subprocess
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", required=True, help="the adapter's command line")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "signin-spec"))
    parser.add_argument("--count", type=int, default=2000, help="conversations (3 calls each)")
    parser.add_argument("--flow", default="userPassword")
    options = parser.parse_args()

    server = subprocess.Popen([options.binary, "serve", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    adapter = None
    try:
        url = server.stdout.readline().split()[-1]
        server.stdout.readline(), server.stdout.readline()
        request = urllib.request.Request(f"{url}/_signin-spec/pools", method="POST", data=b'{"set": {}}')
        with urllib.request.urlopen(request) as answer:
            pool = json.load(answer)
        request = urllib.request.Request(
            f"{url}/_signin-spec/pools/{pool['poolId']}/users/user", method="PUT",
            data=json.dumps({"password": "Passw0rd!", "set": {}}).encode())
        urllib.request.urlopen(request).close()

        adapter = subprocess.Popen(shlex.split(options.adapter), cwd=ROOT, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, bufsize=1)
        ids = iter(range(1, 1 << 30))

        def call(message):
            message["id"] = next(ids)
            adapter.stdin.write(json.dumps(message) + "\n")
            adapter.stdin.flush()
            return json.loads(adapter.stdout.readline())

        call({"type": "hello", "protocol": 1, "endpoint": url + "/"})
        reset = {"type": "reset", "poolId": pool["poolId"], "clientId": pool["clientId"], "username": "user",
                 "password": "Passw0rd!"}
        sign_in = {"type": "signIn", "username": "user", "password": "Passw0rd!", "options": {"authFlow": options.flow}}
        # Warm up (imports, the first connection), then measure.
        for _ in range(20):
            call(dict(reset)), call(dict(sign_in)), call({"type": "signOut"})
        start = time.perf_counter()
        failures = 0
        for _ in range(options.count):
            call(dict(reset))
            answer = call(dict(sign_in))
            if answer.get("step") is None or answer.get("error"):
                failures += 1
            call({"type": "signOut"})
        elapsed = time.perf_counter() - start
        adapter.stdin.close()
        adapter.wait(timeout=30)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        calls = 3 * options.count
        print(f"{calls} calls ({options.count} conversations, {options.flow}) in {elapsed:.2f} s: "
              f"{calls / elapsed:.0f} calls/s, {options.count / elapsed:.0f} sign-ins/s; "
              f"adapter CPU {usage.ru_utime + usage.ru_stime:.2f} s; failures {failures}")
    finally:
        if adapter is not None and adapter.poll() is None:
            adapter.kill()
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
