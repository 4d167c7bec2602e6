#!/usr/bin/env python3
"""Make the inconsistent recordings of `signin-spec diagnose` from the consistent ones: one edit each.

Reads Tests/Fixtures/recordings/NAME.jsonl (recorded by scripts/record.py) and writes
Tests/Fixtures/recordings/edited/NAME.EDIT.jsonl with NAME.EDIT.expect.json:
{"model", "served", "client", "verdict": "inconsistent", "inconsistentAt": K, "edit", "description",
"source"}, where K is the 1-based number of the edited Cognito request in the file (every line of a
JSON-lines recording is a Cognito request) and the first request no configuration explains.

  python3 scripts/edit-recording.py          # every edit of EDITS, and the encoded HARs
  python3 scripts/edit-recording.py --list

It also writes Tests/Fixtures/recordings/encoded/: consistent HAR files whose bodies are stored as
other HAR writers store them (mitmdump writes decoded text): base64 ("encoding": "base64", as
browsers do for bodies they do not show as text), and base64 of the gzip bytes with the
Content-Encoding: gzip header (a writer that keeps the body as it came over the wire). Each with its
JSON-lines twin and the source's expect file. And Tests/Fixtures/recordings/variants/: consistent
JSON-lines recordings re-spelled as the format allows (prefixed operations, namespaced __type, no
time; error "timeout" for an unanswered request).
"""

import argparse
import base64
import copy
import gzip
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests/Fixtures/recordings")


def challenge(name, parameters=None, session="sess-edited-0000000000000001"):
    return {"ChallengeName": name, "ChallengeParameters": parameters or {}, "Session": session}


def error(type_, message):
    return {"__type": type_, "message": message}


def set_response(k, response, status=200):
    """Replaces request k's response (1-based)."""

    def edit(lines):
        lines[k - 1]["response"] = response
        lines[k - 1]["status"] = status
        lines[k - 1].pop("error", None)
        return lines

    return edit


def tokens_of(lines):
    for line in lines:
        if isinstance(line.get("response"), dict) and "AuthenticationResult" in line["response"]:
            return copy.deepcopy(line["response"])
    raise SystemExit("no tokens in the recording")


def skip_mfa(k):
    """Request k's challenge replaced by the tokens the recording ends with."""

    def edit(lines):
        lines[k - 1]["response"] = tokens_of(lines)
        lines[k - 1]["status"] = 200
        return lines

    return edit


def same_wrong_code(k, wrong_k, key):
    """Request k (which got tokens) sends the code request wrong_k sent and was refused."""

    def edit(lines):
        lines[k - 1]["request"]["ChallengeResponses"][key] = lines[wrong_k - 1]["request"]["ChallengeResponses"][key]
        return lines

    return edit


def continue_after(k):
    """Inserts after request k-1 (answered NotAuthorizedException) the same request again, answered
    with tokens: the flow goes on with a session the error ended."""

    def edit(lines):
        again = copy.deepcopy(lines[k - 2])
        again["response"] = {
            "AuthenticationResult": {
                "AccessToken": "eyJedited.access.token", "ExpiresIn": 3600, "TokenType": "Bearer",
                "RefreshToken": "edited-refresh-token", "IdToken": "eyJedited.id.token",
            },
            "ChallengeParameters": {},
        }
        again["status"] = 200
        lines.insert(k - 1, again)
        return lines

    return edit


CODE_MISMATCH = error("CodeMismatchException", "Invalid code received for user")
# Notes on how an edit's verdict depends on a reading of the model, kept in the expect file.
NOTES = {
    "code-mismatch-for-tokens": "RespondToAuthChallenge documents CodeMismatchException; the verdict assumes the "
    "model's wrongCode names it, so it is never a serviceError ('documented errors that no other response names')",
    "code-mismatch-after-verified": "as code-mismatch-for-tokens: CodeMismatchException is wrongCode, not a serviceError",
    "code-mismatch-for-selection": "as code-mismatch-for-tokens: CodeMismatchException is wrongCode, not a serviceError",
    "code-mismatch-for-bob": "InitiateAuth does not document CodeMismatchException at all",
    "code-mismatch-for-password": "InitiateAuth does not document CodeMismatchException at all",
    "tokens-after-wrong-code": "the model's codes are right or wrong, not values: the verdict needs diagnose to see "
    "that the code accepted is the one refused in the same challenge (an SMS code does not change within a session)",
}

# (source, edit name, K, kind, description, edit)
EDITS = [
    ("mfa-selection.ref", "totp-for-sms", 2, "different challenge",
     "SMS_MFA selected (SELECT_MFA_TYPE ANSWER=SMS_MFA); the answer is SOFTWARE_TOKEN_MFA instead of SMS_MFA",
     set_response(2, challenge("SOFTWARE_TOKEN_MFA"))),
    ("mfa-selection.boto3", "totp-for-sms", 2, "different challenge",
     "SMS_MFA selected (SELECT_MFA_TYPE ANSWER=SMS_MFA); the answer is SOFTWARE_TOKEN_MFA instead of SMS_MFA",
     set_response(2, challenge("SOFTWARE_TOKEN_MFA"))),
    ("user-auth-select.ref", "sms-otp-for-email-otp", 2, "different challenge",
     "EMAIL_OTP selected (SELECT_CHALLENGE ANSWER=EMAIL_OTP); the answer is SMS_OTP instead of EMAIL_OTP",
     set_response(2, challenge("SMS_OTP", {"CODE_DELIVERY_DELIVERY_MEDIUM": "SMS",
                                           "CODE_DELIVERY_DESTINATION": "+1***0100"}))),
    ("sms-mfa-wrong-code.ref", "challenge-after-code", 3, "different challenge",
     "the SMS_MFA code answered with a SOFTWARE_TOKEN_MFA challenge instead of tokens (MFA after MFA)",
     set_response(3, challenge("SOFTWARE_TOKEN_MFA"))),
    ("custom.boto3", "sms-mfa-in-custom", 2, "different challenge",
     "a custom answer in CUSTOM_AUTH without SRP answered with SMS_MFA (no MFA in custom flows without SRP)",
     set_response(2, challenge("SMS_MFA", {"CODE_DELIVERY_DELIVERY_MEDIUM": "SMS",
                                           "CODE_DELIVERY_DESTINATION": "+1***0100"}))),
    ("new-password.ref", "code-mismatch-for-tokens", 2, "error for success",
     "the new password (NEW_PASSWORD_REQUIRED, no code sent) answered CodeMismatchException instead of tokens",
     set_response(2, CODE_MISMATCH, 400)),
    ("new-password.boto3", "code-mismatch-for-tokens", 2, "error for success",
     "the new password (NEW_PASSWORD_REQUIRED, no code sent) answered CodeMismatchException instead of tokens",
     set_response(2, CODE_MISMATCH, 400)),
    ("totp-setup.ref", "code-mismatch-after-verified", 4, "error for success",
     "RespondToAuthChallenge MFA_SETUP after VerifySoftwareToken SUCCESS (no code in it) answered "
     "CodeMismatchException instead of tokens",
     set_response(4, CODE_MISMATCH, 400)),
    ("mfa-selection.ref", "code-mismatch-for-selection", 2, "error for success",
     "the MFA type selection (a choice, not a code) answered CodeMismatchException",
     set_response(2, CODE_MISMATCH, 400)),
    ("user-auth-password.boto3", "code-mismatch-for-password", 1, "error for success",
     "USER_AUTH with PREFERRED_CHALLENGE=PASSWORD and the password answered CodeMismatchException",
     set_response(1, CODE_MISMATCH, 400)),
    ("mfa-selection.ref", "skipped-mfa", 2, "skipped MFA",
     "tokens right after the MFA type was selected: the MFA the pool asked for was never asked",
     skip_mfa(2)),
    ("mfa-selection.boto3", "skipped-mfa", 2, "skipped MFA",
     "tokens right after the MFA type was selected: the MFA the pool asked for was never asked",
     skip_mfa(2)),
    ("sms-mfa-wrong-code.ref", "tokens-after-wrong-code", 3, "tokens after a wrong code",
     "the SMS code refused with CodeMismatchException at request 2 is sent again at request 3 and "
     "accepted (one SMS code per challenge: a refused code stays wrong; needs diagnose to compare code values)",
     same_wrong_code(3, 2, "SMS_MFA_CODE")),
    ("sms-mfa-wrong-code.boto3", "tokens-after-wrong-code", 3, "tokens after a wrong code",
     "the SMS code refused with CodeMismatchException at request 2 is sent again at request 3 and "
     "accepted (one SMS code per challenge: a refused code stays wrong; needs diagnose to compare code values)",
     same_wrong_code(3, 2, "SMS_MFA_CODE")),
    ("two-users-interleaved.ref", "challenge-after-code", 4, "different challenge",
     "two users interleaved: alice's SMS code answered with a SOFTWARE_TOKEN_MFA challenge instead of tokens "
     "(MFA after MFA); bob's flow, between, stays consistent",
     set_response(4, challenge("SOFTWARE_TOKEN_MFA"))),
    ("two-users-interleaved.boto3", "code-mismatch-for-bob", 2, "error for success",
     "two users interleaved: bob's password sign-in (USER_PASSWORD_AUTH, no code) answered CodeMismatchException; "
     "alice's flow stays consistent",
     set_response(2, CODE_MISMATCH, 400)),
    ("fault-not-authorized.ref", "continue-after-not-authorized", 3, "flow continuing after NotAuthorizedException",
     "after NotAuthorizedException on the SMS code (the flow ends), the same session answered again with tokens",
     continue_after(3)),
    ("fault-not-authorized.boto3", "continue-after-not-authorized", 3,
     "flow continuing after NotAuthorizedException",
     "after NotAuthorizedException on the SMS code (the flow ends), the same session answered again with tokens",
     continue_after(3)),
]


ENCODED = [("sms-mfa-wrong-code.ref", "base64"), ("totp-mfa.boto3", "gzip-base64"), ("password.pycognito", "base64")]


def encode_har(har, how):
    for entry in har["log"]["entries"]:
        for part, key in (("request", "postData"), ("response", "content")):
            content = entry[part].get(key)
            if not content or "text" not in content:
                continue
            data = content["text"].encode()
            if how == "gzip-base64" and part == "response":
                data = gzip.compress(data, mtime=0)
                entry[part]["headers"].append({"name": "Content-Encoding", "value": "gzip"})
                content["compression"] = len(content["text"].encode()) - len(data)
            if part == "response" or how == "base64":
                content["text"] = base64.b64encode(data).decode()
                content["encoding"] = "base64"
    return har


def write_encoded(out):
    os.makedirs(out, exist_ok=True)
    for source, how in ENCODED:
        base = os.path.join(FIXTURES, source)
        target = os.path.join(out, f"{source}.{how}")
        with open(base + ".har") as f:
            har = encode_har(json.load(f), how)
        with open(target + ".har", "w") as f:
            json.dump(har, f, indent=1)
            f.write("\n")
        with open(base + ".jsonl") as f, open(target + ".jsonl", "w") as g:
            g.write(f.read())
        with open(base + ".expect.json") as f:
            expect = json.load(f)
        expect["source"] = f"{source}.har"
        expect["encoding"] = how
        with open(target + ".expect.json", "w") as f:
            json.dump(expect, f, indent=2)
            f.write("\n")
        print(os.path.relpath(target + ".har", ROOT))


def respell(lines):
    """Every spelling the format allows: operations with their X-Amz-Target prefix, __type with a
    namespace, no time members."""
    for line in lines:
        line["operation"] = "AWSCognitoIdentityProviderService." + line["operation"].split(".")[-1]
        if isinstance(line.get("response"), dict) and "__type" in line["response"]:
            line["response"]["__type"] = ("com.amazonaws.cognito.identity.idp.model#"
                                          + line["response"]["__type"].split("#")[-1])
        line.pop("time", None)
    return lines


def timeout_for_reset(lines):
    for line in lines:
        if line.get("error") == "reset":
            line["error"] = "timeout"
    return lines


# Consistent re-spellings of consistent recordings (JSON lines): (source, name, description, change).
VARIANTS = [
    ("sms-mfa-wrong-code.boto3", "respelled",
     "operations with the AWSCognitoIdentityProviderService. prefix, __type with a namespace, no time members",
     respell),
    ("fault-reset-retry.ref", "timeout",
     "the request that got no answer gave up waiting (error timeout) instead of a reset connection", timeout_for_reset),
]


def write_variants(out):
    os.makedirs(out, exist_ok=True)
    for source, name, description, change in VARIANTS:
        base = os.path.join(FIXTURES, source)
        target = os.path.join(out, f"{source}.{name}")
        with open(base + ".jsonl") as f:
            lines = change([json.loads(line) for line in f if line.strip()])
        with open(target + ".jsonl", "w") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")
        with open(base + ".expect.json") as f:
            expect = json.load(f)
        expect["source"] = f"{source}.jsonl"
        expect["variant"] = description
        with open(target + ".expect.json", "w") as f:
            json.dump(expect, f, indent=2)
            f.write("\n")
        print(os.path.relpath(target + ".jsonl", ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--out", default=os.path.join(FIXTURES, "edited"))
    args = parser.parse_args()
    if args.list:
        for source, name, k, kind, description, _ in EDITS:
            print(f"{source}.{name}\tK={k}\t{kind}\t{description}")
        return
    os.makedirs(args.out, exist_ok=True)
    for source, name, k, kind, description, edit in EDITS:
        with open(os.path.join(FIXTURES, source + ".jsonl")) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        with open(os.path.join(FIXTURES, source + ".expect.json")) as f:
            original = json.load(f)
        edited = edit(copy.deepcopy(lines))
        base = os.path.join(args.out, f"{source}.{name}")
        with open(base + ".jsonl", "w") as f:
            for line in edited:
                f.write(json.dumps(line) + "\n")
        expect = {
            "model": original["model"],
            "served": original["served"],
            **({"users": original["users"]} if "users" in original else {}),
            "client": original["client"],
            "verdict": "inconsistent",
            "inconsistentAt": k,
            "edit": kind,
            "description": description,
            **({"note": NOTES[name]} if name in NOTES else {}),
            "source": f"{source}.jsonl",
        }
        with open(base + ".expect.json", "w") as f:
            json.dump(expect, f, indent=2)
            f.write("\n")
        print(os.path.relpath(base + ".jsonl", ROOT))
    write_encoded(os.path.join(FIXTURES, "encoded"))
    write_variants(os.path.join(FIXTURES, "variants"))


if __name__ == "__main__":
    main()
