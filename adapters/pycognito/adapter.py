#!/usr/bin/env python3
"""pycognito (PyPI `pycognito`) behind signin-spec's client-adapter protocol v1.

SRP sign-in with `pycognito.aws_srp.AWSSRP.authenticate_user()` (the call `Cognito.authenticate`
makes; used directly so that a remembered device's keys can be passed and NewDeviceMetadata
seen), pycognito's challenge exceptions as the steps (SMSMFAChallengeException,
SoftwareTokenMFAChallengeException, ForceChangePasswordException) and its answers
(`Cognito.respond_to_sms_mfa_challenge`, `respond_to_software_token_mfa_challenge`,
`new_password_challenge`). Tokens are verified by pycognito (`Cognito._set_tokens`, what
`authenticate` does) against the key set at `<endpoint>/<poolId>/.well-known/jwks.json`.

pycognito's `AWSSRP.confirm_device` posts to https://cognito-idp.<region>.amazonaws.com/ whatever
endpoint its client has, so a new device is confirmed with boto3's `confirm_device` (through
the Cognito object's client) and pycognito's `generate_hash_device`. See README.md.

Protocol: one JSON request per line on stdin, one answer per line on stdout (flushed), logs on
stderr; exit 0 when stdin closes, 65 for a request it cannot read, 64 for a bad option.
"""

import argparse
import json
import sys
from importlib import metadata

import botocore
from botocore.config import Config
from botocore.exceptions import (
    ClientError,
    ConnectionClosedError,
    EndpointConnectionError,
    HTTPClientError,
    ParamValidationError,
    ReadTimeoutError,
)
import boto3
import requests
from pycognito import Cognito
from pycognito.aws_srp import AWSSRP, generate_hash_device
from pycognito.exceptions import (
    ForceChangePasswordException,
    SMSMFAChallengeException,
    SoftwareTokenMFAChallengeException,
    TokenVerificationException,
)

CLIENT = f"pycognito {metadata.version('pycognito')}"
AUTHENTICATED = "authenticated"
# pycognito's vocabulary: the exception authenticate raises for a challenge, and "authenticated"
# when the Cognito object holds verified tokens.
STEPS = {
    "SMSMFAChallengeException": "confirmSignInWithSMSMFACode",
    "SoftwareTokenMFAChallengeException": "confirmSignInWithTOTPCode",
    "ForceChangePasswordException": "confirmSignInWithNewPassword",
    AUTHENTICATED: "done",
}
FLOWS = ["userSRP"]
CHALLENGES = [
    "PASSWORD_VERIFIER", "DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER", "SMS_MFA", "SOFTWARE_TOKEN_MFA",
    "NEW_PASSWORD_REQUIRED",
]
DEVICE_NAME = "signin-spec pycognito adapter"


class AdapterError(Exception):
    """An error named by the adapter (the models' names for errors a client raises itself)."""

    def __init__(self, type_, message):
        super().__init__(message)
        self.type = type_
        self.message = message


class SharedClient:
    """A boto3 Session stand-in for `Cognito(session=…)`: every Cognito object of the run uses
    the one botocore client made at hello (making a client per case costs tens of ms)."""

    def __init__(self, client):
        self._client = client

    def client(self, service, **_):
        assert service == "cognito-idp"
        return self._client


def log(message):
    print(f"pycognito-adapter: {message}", file=sys.stderr, flush=True)


class Client:
    """One case's pycognito user: a `Cognito` object for the pool, app client and username."""

    def __init__(self, session, endpoint, pool_id, client_id, username, keys):
        self.session = session
        self.endpoint = endpoint
        self.pool_id = pool_id
        self.client_id = client_id
        self.keys = keys  # pool id → its key set, fetched once per run (as one Cognito object caches it)
        self.user = self.new_user(username)
        self.step = None
        self.password = None
        self.devices = {}  # username → (key, group key, device password)
        self.secrets = set()
        self.last_response = None  # Cognito's last answer, seen through botocore's after-call event

    def new_user(self, username):
        user = Cognito(
            self.pool_id, self.client_id, username=username, session=self.session,
            boto3_client_kwargs={"endpoint_url": self.endpoint},
        )
        user.pool_jwk = self.keys.get(self.pool_id)
        return user

    @property
    def signed_in(self):
        return bool(self.user.access_token and self.user.id_token)

    def sign_in(self, username, password, options):
        flow = (options or {}).get("authFlow") or "userSRP"
        if flow != "userSRP":
            raise AdapterError("UnsupportedError", f"pycognito has no {flow} sign-in (only SRP, USER_SRP_AUTH)")
        # A new Cognito object: a sign-in starts from nothing (pycognito keeps mfa_tokens and the
        # tokens of the last sign-in on the object otherwise).
        self.user = self.new_user(username)
        self.step = None
        self.password = password or ""
        self.secrets = {s for s in [password] if s}
        device = self.devices.get(username)
        extra = {}
        if device:
            extra = {"device_key": device[0], "device_group_key": device[1], "device_password": device[2]}
            self.secrets.add(device[2])
        aws = AWSSRP(
            username=username, password=self.password, pool_id=self.pool_id, client_id=self.client_id,
            client=self.user.client, **extra,
        )
        try:
            tokens = aws.authenticate_user()
        except (SMSMFAChallengeException, SoftwareTokenMFAChallengeException) as challenge:
            # What Cognito.authenticate does with it: keep the challenge's tokens for the answer.
            self.user.mfa_tokens = challenge.get_tokens()
            self.remember_session(self.user.mfa_tokens)
            self.step = type(challenge).__name__
            return self.observe_challenge(self.user.mfa_tokens)
        except ForceChangePasswordException:
            # pycognito hands over no session: new_password_challenge signs in again with the
            # password and answers NEW_PASSWORD_REQUIRED in the same call.
            self.step = "ForceChangePasswordException"
            return {"step": self.step}
        except NotImplementedError as error:
            raise AdapterError("UnknownChallengeError", str(error))
        self.remember_session(tokens)
        self.set_tokens(tokens)
        self.confirm_new_device(tokens, username)
        return {"step": AUTHENTICATED}

    def confirm_sign_in(self, answer):
        if self.step is None or self.step == AUTHENTICATED:
            raise AdapterError("InvalidStateError", "no pycognito challenge is waiting for an answer; call signIn first")
        self.secrets.add(answer)
        user = self.user
        if self.step == "SMSMFAChallengeException":
            self.answer_mfa(lambda: user.respond_to_sms_mfa_challenge(answer))
        elif self.step == "SoftwareTokenMFAChallengeException":
            self.answer_mfa(lambda: user.respond_to_software_token_mfa_challenge(answer))
        elif self.step == "ForceChangePasswordException":
            self.answer_mfa(lambda: user.new_password_challenge(self.password, answer))
            self.password = answer
        self.step = AUTHENTICATED
        return {"step": AUTHENTICATED}

    def answer_mfa(self, respond):
        """Runs one of pycognito's answers; its `_set_tokens` fails with KeyError when Cognito
        answered with another challenge, which pycognito has no step for."""
        try:
            respond()
        except KeyError as error:
            if error.args != ("AuthenticationResult",):
                raise
            name = (self.last_response or {}).get("ChallengeName")
            if not name:
                # An answer without tokens or a challenge (botocore parses an unreadable body
                # as {}): pycognito still holds mfa_tokens, so the step stays.
                raise AdapterError(
                    "SignInError.invalidServiceResponse",
                    "pycognito expected tokens, and the answer had none (KeyError 'AuthenticationResult')",
                )
            self.step = None
            raise AdapterError(
                "UnknownChallengeError",
                f"pycognito expected tokens, and Cognito answered with the {name} challenge "
                "(KeyError 'AuthenticationResult')",
            )
        self.keys.setdefault(self.pool_id, self.user.pool_jwk)

    def set_tokens(self, tokens):
        if "AuthenticationResult" not in tokens:
            # Cognito.authenticate's _set_tokens raises KeyError here: a challenge pycognito's
            # authenticate_user returns as if it were tokens (MFA_SETUP, SELECT_MFA_TYPE, …),
            # or an answer with neither (botocore parses an unreadable body as {}).
            self.step = None
            if not tokens.get("ChallengeName"):
                raise AdapterError(
                    "SignInError.invalidServiceResponse",
                    "pycognito expected tokens, and the answer had none (KeyError 'AuthenticationResult')",
                )
            raise AdapterError(
                "UnknownChallengeError",
                f"pycognito does not handle the {tokens['ChallengeName']} challenge "
                "(Cognito.authenticate fails with KeyError 'AuthenticationResult')",
            )
        self.user._set_tokens(tokens)
        self.keys.setdefault(self.pool_id, self.user.pool_jwk)
        self.step = AUTHENTICATED

    def confirm_new_device(self, tokens, username):
        result = tokens.get("AuthenticationResult") or {}
        device = result.get("NewDeviceMetadata")
        if not device:
            return
        key, group = device.get("DeviceKey"), device.get("DeviceGroupKey", "")
        password, verifier = generate_hash_device(group, key)
        try:
            # Not AWSSRP.confirm_device: it posts to real AWS whatever the endpoint.
            self.user.client.confirm_device(
                AccessToken=result["AccessToken"], DeviceKey=key, DeviceSecretVerifierConfig=verifier,
                DeviceName=DEVICE_NAME,
            )
        except (ClientError, botocore.exceptions.BotoCoreError) as error:
            log(f"ConfirmDevice failed, the device is not remembered: {type(error).__name__}")
            return
        self.devices[username] = (key, group, password)

    def remember_session(self, tokens):
        if tokens and tokens.get("Session"):
            self.secrets.add(tokens["Session"])

    def observe_challenge(self, tokens):
        observation = {"step": self.step}
        parameters = (tokens or {}).get("ChallengeParameters") or {}
        if "CODE_DELIVERY_DESTINATION" in parameters or "CODE_DELIVERY_DELIVERY_MEDIUM" in parameters:
            medium = parameters.get("CODE_DELIVERY_DELIVERY_MEDIUM", "")
            observation["delivery"] = {
                "medium": medium if medium in ("SMS", "EMAIL") else "UNKNOWN",
                "destination": parameters.get("CODE_DELIVERY_DESTINATION", ""),
            }
        return observation

    def sign_out(self):
        # Local: pycognito's logout() calls GlobalSignOut, which `signin-spec serve` does not
        # answer; what logout() does after the call (drop the tokens) is done here.
        self.user = self.new_user(self.user.username)
        self.step = None
        self.secrets = set()

    def redact(self, text):
        for secret in sorted(self.secrets, key=len, reverse=True):
            if secret and len(secret) >= 3:
                text = text.replace(secret, "[redacted]")
        return text


class Adapter:
    def __init__(self, timeout):
        self.timeout = timeout
        self.endpoint = None
        self.session = None
        self.client = None
        self.keys = {}

    def hello(self, request):
        # pycognito builds the issuer and the key set's URL as endpoint_url + "/" + poolId.
        self.endpoint = request["endpoint"].rstrip("/")
        botocore_client = boto3.session.Session().client(
            "cognito-idp", region_name="us-east-1", endpoint_url=self.endpoint,
            aws_access_key_id="signin-spec", aws_secret_access_key="signin-spec",
            config=Config(retries={"total_max_attempts": 1, "mode": "standard"},
                          connect_timeout=self.timeout, read_timeout=self.timeout),
        )
        # pycognito makes requests the adapter never sees (new_password_challenge signs in
        # again): every session, code, password and SRP value sent or received becomes one of
        # the case's secrets, never shown in an error message.
        botocore_client.meta.events.register("provide-client-params.cognito-idp", self.secrets_sent)
        botocore_client.meta.events.register("after-call.cognito-idp", self.secrets_received)
        self.session = SharedClient(botocore_client)
        return {
            "type": "hello", "protocol": 1, "client": CLIENT, "steps": STEPS,
            "capabilities": {"flows": FLOWS, "challenges": CHALLENGES},
        }

    def secrets_sent(self, params, **_):
        if self.client is None:
            return
        secrets = self.client.secrets
        for field in ("Session", "UserCode", "AccessToken"):
            if isinstance(params.get(field), str):
                secrets.add(params[field])
        for field in ("AuthParameters", "ChallengeResponses"):
            for key, value in (params.get(field) or {}).items():
                if key != "USERNAME" and isinstance(value, str):
                    secrets.add(value)

    def secrets_received(self, parsed, **_):
        if self.client is None or not isinstance(parsed, dict):
            return
        self.client.last_response = parsed
        for field in ("Session", "SecretCode"):
            if isinstance(parsed.get(field), str):
                self.client.secrets.add(parsed[field])

    def observation(self, body=None, error=None):
        answer = {"type": "observation", "step": None, "error": None, "delivery": None, "isSignedIn": False}
        if self.client is not None:
            answer["step"] = self.client.step
            answer["isSignedIn"] = self.client.signed_in
        if body:
            answer.update(body)
        if error is not None:
            answer["error"] = error
        return answer

    def call(self, action):
        client = self.client
        if client is None:
            return self.observation(error={"type": "InvalidStateError", "message": "no pool yet: reset first"})
        try:
            return self.observation(action())
        except AdapterError as error:
            kind, message = error.type, error.message
        except ClientError as error:
            details = error.response.get("Error", {})
            kind = details.get("Code") or "ClientError"
            status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
            message = details.get("Message") or kind
            if kind.isdigit() or (status >= 500 and not details.get("Message")):
                kind, message = "SignInError.invalidServiceResponse", f"HTTP {status} without an error body"
        except ParamValidationError as error:
            kind, message = "ValidationError", str(error)
        except (EndpointConnectionError, ConnectionClosedError, ReadTimeoutError, HTTPClientError,
                botocore.exceptions.ConnectTimeoutError, requests.RequestException) as error:
            kind, message = "NetworkError", str(error)
        except TokenVerificationException as error:
            kind, message = "TokenVerificationException", str(error)
        except Exception as error:  # what pycognito raises on an answer it cannot use (KeyError, …)
            log(f"{type(error).__name__} from pycognito: {error!r}")
            kind, message = "SignInError.invalidServiceResponse", f"pycognito could not use the answer ({type(error).__name__} {error})"
        # pycognito keeps what it had (mfa_tokens, the password) after an error: the step stays,
        # except where the adapter ended it above (a challenge pycognito has no step for).
        return self.observation(error={"type": kind, "message": client.redact(message)})

    def handle(self, request):
        kind = request["type"]
        if kind == "hello":
            return self.hello(request)
        if kind == "reset":
            if self.session is None:
                return self.observation(error={"type": "InvalidStateError", "message": "reset before hello"})
            self.client = Client(self.session, self.endpoint, request["poolId"], request["clientId"],
                                 request["username"], self.keys)
            return self.observation()
        if kind == "signIn":
            username, password, options = request["username"], request.get("password"), request.get("options") or {}
            if not isinstance(username, str) or not isinstance(options, dict):
                raise ValueError("signIn needs a username and an options object")
            return self.call(lambda: self.client.sign_in(username, password, options))
        if kind == "confirmSignIn":
            answer = request["answer"]
            if not isinstance(answer, str):
                raise ValueError("confirmSignIn's answer is not a string")
            return self.call(lambda: self.client.confirm_sign_in(answer))
        if kind == "signOut":
            if self.client is not None:
                self.client.sign_out()
            return self.observation()
        raise ValueError(f"unknown request type {kind!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--request-timeout", type=float, default=10.0,
                        help="seconds botocore waits to connect and for each answer (default 10)")
    try:
        options = parser.parse_args()
    except SystemExit as exit_:
        sys.exit(64 if exit_.code else 0)
    adapter = Adapter(options.request_timeout)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict) or not isinstance(request.get("id"), int):
                raise ValueError("not an object with an integer id")
            answer = adapter.handle(request)
        except (ValueError, KeyError, TypeError) as error:
            log(f"cannot read the request: {error}: {line.strip()[:200]}")
            sys.exit(65)
        answer["id"] = request["id"]
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    sys.exit(0)


if __name__ == "__main__":
    main()
