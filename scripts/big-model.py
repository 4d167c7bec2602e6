#!/usr/bin/env python3
"""Writes a generated model of a given shape and size to stdout, for the scale benchmark
(`make bench-scale`) and the long-tier scale tests.

Usage: scripts/big-model.py KIND N
  variables N    a small sign-in flow plus N configuration variables no guard reads
  unreachable N  the same flow plus N steps nothing leads to
  chain N        a chain of N code steps, each right code leading to the next, the last to done
  routes N       signIn's answer passes through a chain of N routes before the code step
Exit 64 for bad usage.
"""

import sys

HEAD = """format: 3
model: {name}
generation: test
platforms: [swift]
configuration:
  pool.mfa: {{domain: [off, required], default: required}}
{extra_configuration}flow:
  flow.retries: {{domain: 0..5, initial: 0}}
definitions:
  mfaRequired: "pool.mfa == required"
responses:
  correctPassword: the right password
  correctCode: the right code
  wrongCode: a wrong code
"""

CODE_RULES = """    responses:
      correctCode:
        - goto: {next}
{verifies}      wrongCode:
        - when: "flow.retries < 4"
          error: CodeMismatchException
          set: {{flow.retries: "flow.retries + 1"}}
        - when: "flow.retries == 4"
          restart: "NotAuthorizedException: lockout"
"""


def code_step(name, next_step, verifies_mfa):
    verifies = "          verifies: mfa\n" if verifies_mfa else ""
    return (
        f"  {name}:\n    names: {{swift: {name}}}\n"
        + CODE_RULES.format(next=next_step, verifies=verifies)
    )


def model(kind, n):
    extra_configuration = ""
    steps = []
    routes = []
    first = "code"
    if kind == "variables":
        extra_configuration = "".join(f"  pool.unused{i}: {{domain: bool, default: false}}\n" for i in range(n))
        steps.append(code_step("code", "done", True))
    elif kind == "unreachable":
        steps.append(code_step("code", "done", True))
        steps += [code_step(f"orphan{i}", "done", True) for i in range(n)]
    elif kind == "chain":
        names = [f"code{i}" for i in range(n)]
        first = names[0]
        for i, name in enumerate(names):
            last = i == n - 1
            steps.append(code_step(name, "done" if last else names[i + 1], last))
    elif kind == "routes":
        steps.append(code_step("code", "done", True))
        first = "route0"
        for i in range(n):
            target = f"route{i + 1}" if i + 1 < n else "code"
            routes.append(f"  route{i}:\n    - goto: {target}\n")
    text = HEAD.format(name=f"big-{kind}-{n}", extra_configuration=extra_configuration)
    text += "signIn:\n  responses:\n    correctPassword:\n"
    text += f"      - goto: {first}\n        verifies: firstFactor\n"
    text += "steps:\n" + "".join(steps) + "  done:\n    ends: signedIn\n"
    if routes:
        text += "routes:\n" + "".join(routes)
    return text


def main():
    kinds = ["variables", "unreachable", "chain", "routes"]
    if len(sys.argv) != 3 or sys.argv[1] not in kinds or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
        print(f"usage: big-model.py {{{'|'.join(kinds)}}} N (N >= 1)", file=sys.stderr)
        sys.exit(64)
    sys.stdout.write(model(sys.argv[1], int(sys.argv[2])))


if __name__ == "__main__":
    main()
