#!/usr/bin/env python3
"""Slowest suites and tests of a Swift Testing run, from the runner's own event stream.

Usage: test-times.py EVENTS.jsonl [--top N] [--suites-only]

EVENTS.jsonl is what `swift test --event-stream-output-path EVENTS.jsonl --event-stream-version 0`
writes: one JSON object per line. A test's time is from its `testStarted` to its `testEnded`
event (wall time; tests run in parallel, so a test waiting for a core counts that wait). A
suite's time is from its first test's start to its last test's end. Exit 2 for a file that
is not such a stream (naming the line), 64 for bad usage. Under a parallel run (`make test`)
a suite's time includes waits for a core; `make test-times` runs one test at a time.
"""
import json
import sys


def main(argv):
    top = 10
    args = list(argv[1:])
    suites_only = "--suites-only" in args
    args = [a for a in args if a != "--suites-only"]
    if "--top" in args:
        i = args.index("--top")
        try:
            top = int(args[i + 1])
            if top < 1:
                raise ValueError
        except (IndexError, ValueError):
            print("error: --top needs a positive whole number", file=sys.stderr)
            return 64
        del args[i : i + 2]
    if len(args) != 1:
        print("usage: test-times.py EVENTS.jsonl [--top N] [--suites-only]", file=sys.stderr)
        return 64
    path = args[0]
    names, kinds, started, ended = {}, {}, {}, {}
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            for number, line in enumerate(stream, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    payload = record["payload"]
                    if record.get("kind") == "test":
                        names[payload["id"]] = payload.get("displayName") or payload.get("name")
                        kinds[payload["id"]] = payload.get("kind")
                    elif record.get("kind") == "event" and payload.get("kind") in ("testStarted", "testEnded"):
                        when = float(payload["instant"]["absolute"])
                        (started if payload["kind"] == "testStarted" else ended)[payload["testID"]] = when
                except (ValueError, KeyError, TypeError, AttributeError):
                    print(f"error: {path}:{number}: not a Swift Testing event record", file=sys.stderr)
                    return 2
    except OSError as error:
        print(f"error: {path}: {error.strerror}", file=sys.stderr)
        return 2
    if not started:
        print(f"error: {path}: no test started in this event stream", file=sys.stderr)
        return 2
    tests = {i: ended[i] - started[i] for i in started if i in ended and kinds.get(i) != "suite"}
    suites = {i: ended[i] - started[i] for i in started if i in ended and kinds.get(i) == "suite"}
    total = max(ended.values()) - min(started.values())

    def table(title, times):
        print(title)
        for ident, seconds in sorted(times.items(), key=lambda kv: -kv[1])[:top]:
            short = ident.split("/")[0] if kinds.get(ident) == "suite" else ident.rsplit("/", 1)[0]
            print(f"  {seconds:9.2f} s  {short}  ({names.get(ident, '')})")

    print(f"{len(tests)} tests in {len(suites)} suites, {total:.1f} s from the first start to the last end")
    table(f"slowest {top} suites:", suites)
    if not suites_only:
        table(f"slowest {top} tests:", tests)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
