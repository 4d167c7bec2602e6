#!/usr/bin/env python3
"""A plain-boto3 Cognito sign-in client behind signin-spec's client-adapter protocol v1.

The client is what a user of the raw SDK writes: it keeps the current ChallengeName, Session and
ChallengeParameters, starts a flow with InitiateAuth and answers each challenge with
RespondToAuthChallenge (plus AssociateSoftwareToken and VerifySoftwareToken for TOTP setup and
ConfirmDevice for a new device). It reports what it sees: the challenge Cognito sent (its own
step names, mapped to the model's in hello's `steps`), Cognito's exception names from botocore's
ClientError, botocore's own errors. See README.md next to this file.

Protocol: one JSON request per line on stdin, one answer per line on stdout (flushed), logs on
stderr; exit 0 when stdin closes, 65 for a request it cannot read, 64 for a bad option.
"""

import argparse
import json
import sys

import boto3
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
from pycognito.aws_srp import AWSSRP, generate_hash_device, long_to_hex

CLIENT = f"boto3 {boto3.__version__} (botocore {botocore.__version__}, raw cognito-idp calls)"

# The adapter's step names (Cognito's ChallengeName, with the MFA_SETUP variants and the local
# password step told apart) → the model's steps (Amplify Swift's AuthSignInStep case names).
STEPS = {
    "SMS_MFA": "confirmSignInWithSMSMFACode",
    "SOFTWARE_TOKEN_MFA": "confirmSignInWithTOTPCode",
    "EMAIL_OTP": "confirmSignInWithOTP",
    "SMS_OTP": "confirmSignInWithOTP",
    "CUSTOM_CHALLENGE": "confirmSignInWithCustomChallenge",
    "NEW_PASSWORD_REQUIRED": "confirmSignInWithNewPassword",
    "SELECT_MFA_TYPE": "continueSignInWithMFASelection",
    "SELECT_CHALLENGE": "continueSignInWithFirstFactorSelection",
    "MFA_SETUP": "continueSignInWithMFASetupSelection",
    "MFA_SETUP/SOFTWARE_TOKEN_MFA": "continueSignInWithTOTPSetup",
    "MFA_SETUP/EMAIL_OTP": "continueSignInWithEmailMFASetup",
    "SELECT_CHALLENGE/PASSWORD": "confirmSignInWithPassword",
    "SELECT_CHALLENGE/PASSWORD_SRP": "confirmSignInWithPassword",
    "PASSWORD": "confirmSignInWithPassword",
    "PASSWORD_SRP": "confirmSignInWithPassword",
    "AuthenticationResult": "done",
}
FLOWS = ["userSRP", "userPassword", "customWithSRP", "customWithoutSRP", "userAuth"]
CHALLENGES = [
    "PASSWORD_VERIFIER", "DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER", "SMS_MFA", "SOFTWARE_TOKEN_MFA",
    "EMAIL_OTP", "SMS_OTP", "SELECT_MFA_TYPE", "MFA_SETUP", "NEW_PASSWORD_REQUIRED", "CUSTOM_CHALLENGE",
    "SELECT_CHALLENGE", "PASSWORD", "PASSWORD_SRP",
]
# The code each code challenge takes (RespondToAuthChallenge, ChallengeResponses).
CODE_KEYS = {
    "SMS_MFA": "SMS_MFA_CODE",
    "SOFTWARE_TOKEN_MFA": "SOFTWARE_TOKEN_MFA_CODE",
    "EMAIL_OTP": "EMAIL_OTP_CODE",
    "SMS_OTP": "SMS_OTP_CODE",
}
# Cognito's errors after which the session cannot be used again: the flow ends (the user must
# call signIn). Every other error leaves the client on its challenge, to try again.
FLOW_ENDING = {"NotAuthorizedException", "UserNotFoundException"}
DEVICE_NAME = "signin-spec boto3 adapter"


class AdapterError(Exception):
    """An error the client raises itself, by the name the models give it."""

    def __init__(self, type_, message):
        super().__init__(message)
        self.type = type_
        self.message = message


class Challenge:
    """The challenge the client is answering: Cognito's values and the adapter's step."""

    def __init__(self, step, name, session, parameters, username, options=None):
        self.step = step
        self.name = name
        self.session = session
        self.parameters = parameters
        self.username = username
        self.options = options
        self.delivery = None
        self.totp_secret = None
        self.setup_session = None
        self.extra = {}


class Client:
    """The raw-SDK client of one case (made by reset)."""

    def __init__(self, cognito, pool_id, client_id):
        self.cognito = cognito
        self.pool_id = pool_id
        self.client_id = client_id
        self.challenge = None
        self.tokens = None
        self.devices = {}  # username → (key, group key, device password)
        self.password = None
        self.flow_username = None
        self.secrets = set()

    # -- public calls -------------------------------------------------------------------------

    def sign_in(self, username, password, options):
        # A new InitiateAuth replaces whatever the client had: the flow in progress and the
        # tokens of an earlier sign-in (the SDK has no session state to refuse it).
        self.challenge = None
        self.tokens = None
        self.secrets = {s for s in [password] if s}
        self.password = password
        self.flow_username = username
        flow = (options or {}).get("authFlow") or "userSRP"
        parameters = {"USERNAME": username}
        device = self.devices.get(username)
        if device:
            parameters["DEVICE_KEY"] = device[0]
        srp = None
        if flow == "userPassword":
            auth_flow = "USER_PASSWORD_AUTH"
            parameters["PASSWORD"] = password or ""
        elif flow == "userSRP":
            auth_flow = "USER_SRP_AUTH"
            srp = self.srp(username, password)
            parameters["SRP_A"] = long_to_hex(srp.large_a_value)
        elif flow == "customWithSRP":
            auth_flow = "CUSTOM_AUTH"
            srp = self.srp(username, password)
            parameters["SRP_A"] = long_to_hex(srp.large_a_value)
            parameters["CHALLENGE_NAME"] = "SRP_A"
        elif flow == "customWithoutSRP":
            auth_flow = "CUSTOM_AUTH"
        elif flow == "userAuth":
            auth_flow = "USER_AUTH"
            preferred = (options or {}).get("preferredFirstFactor")
            if preferred:
                parameters["PREFERRED_CHALLENGE"] = preferred
            if preferred == "PASSWORD":
                parameters["PASSWORD"] = password or ""
            elif preferred == "PASSWORD_SRP":
                srp = self.srp(username, password)
                parameters["SRP_A"] = long_to_hex(srp.large_a_value)
        else:
            raise AdapterError("UnsupportedError", f"no auth flow {flow}")
        response = self.send(
            "initiate_auth", AuthFlow=auth_flow, ClientId=self.client_id, AuthParameters=parameters
        )
        return self.handle(response, username, srp, password)

    def confirm_sign_in(self, answer):
        challenge = self.challenge
        if challenge is None:
            raise AdapterError("InvalidStateError", "no sign-in is in progress; call signIn first")
        user = challenge.username
        step = challenge.step
        if step not in ("SELECT_MFA_TYPE", "SELECT_CHALLENGE", "MFA_SETUP"):
            self.secrets.add(answer)  # a code, a password, an address, a custom answer; not a selection
        if step in CODE_KEYS:
            response = self.respond(challenge, {"USERNAME": user, CODE_KEYS[step]: answer})
        elif step in ("CUSTOM_CHALLENGE", "SELECT_MFA_TYPE"):
            response = self.respond(challenge, {"USERNAME": user, "ANSWER": answer})
        elif step == "NEW_PASSWORD_REQUIRED":
            response = self.respond(challenge, {"USERNAME": user, "NEW_PASSWORD": answer})
        elif step == "SELECT_CHALLENGE":
            if answer in ("PASSWORD", "PASSWORD_SRP"):
                # Cognito takes the password with the selection; the client asks for it first.
                self.challenge = self.local_step(challenge, f"SELECT_CHALLENGE/{answer}")
                self.challenge.extra["selection"] = challenge
                return self.observe_challenge()
            response = self.respond(challenge, {"USERNAME": user, "ANSWER": answer})
        elif step in ("SELECT_CHALLENGE/PASSWORD", "SELECT_CHALLENGE/PASSWORD_SRP", "PASSWORD", "PASSWORD_SRP"):
            return self.answer_password(challenge, answer)
        elif step == "MFA_SETUP":
            if answer not in (challenge.options or []):
                raise AdapterError(
                    "ValidationError", f"choose one of {', '.join(challenge.options or [])} to set up"
                )
            if answer == "SOFTWARE_TOKEN_MFA":
                self.challenge = self.start_totp_setup(challenge)
            else:
                self.challenge = self.local_step(challenge, "MFA_SETUP/EMAIL_OTP")
            return self.observe_challenge()
        elif step == "MFA_SETUP/SOFTWARE_TOKEN_MFA":
            verified = self.send(
                "verify_software_token", Session=challenge.setup_session, UserCode=answer
            )
            session = verified.get("Session")
            if session:
                self.secrets.add(session)
                challenge.setup_session = session
            if "Status" not in verified:
                raise AdapterError("SignInError.invalidServiceResponse", "VerifySoftwareToken answered without a Status")
            if verified.get("Status") != "SUCCESS":
                raise AdapterError(
                    "EnableSoftwareTokenMFAException", f"VerifySoftwareToken answered {verified.get('Status')}"
                )
            response = self.send(
                "respond_to_auth_challenge", ClientId=self.client_id, ChallengeName="MFA_SETUP",
                Session=session or challenge.session, ChallengeResponses={"USERNAME": user},
            )
        elif step == "MFA_SETUP/EMAIL_OTP":
            response = self.respond(challenge, {"USERNAME": user, "EMAIL": answer})
        else:
            raise AdapterError("InvalidStateError", f"no answer for {step}")
        return self.handle(response, self.flow_username, None, self.password)

    def sign_out(self):
        # Local: forget the tokens and the flow (serve does not answer GlobalSignOut; the
        # reference client's signOut is local too). Remembered devices stay.
        self.challenge = None
        self.tokens = None
        self.secrets = set()

    # -- flow machinery -----------------------------------------------------------------------

    def srp(self, username, password, device=None):
        extra = {}
        if device:
            extra = {"device_key": device[0], "device_group_key": device[1], "device_password": device[2]}
        return AWSSRP(
            username=username, password=password or "", pool_id=self.pool_id, client_id=self.client_id,
            client=self.cognito, **extra,
        )

    def send(self, operation, **request):
        response = getattr(self.cognito, operation)(**request)
        session = response.get("Session")
        if session:
            self.secrets.add(session)
        return response

    def respond(self, challenge, answers, name=None):
        request = {
            "ClientId": self.client_id,
            "ChallengeName": name or challenge.name,
            "ChallengeResponses": answers,
        }
        if challenge.session:
            request["Session"] = challenge.session
        return self.send("respond_to_auth_challenge", **request)

    def local_step(self, challenge, step):
        new = Challenge(step, challenge.name, challenge.session, challenge.parameters, challenge.username)
        return new

    def answer_password(self, challenge, password):
        step = challenge.step
        self.password = password
        user = challenge.username
        srp = None
        if step.endswith("PASSWORD_SRP"):
            srp = self.srp(self.flow_username, password)
            answers = {"USERNAME": user, "SRP_A": long_to_hex(srp.large_a_value)}
        else:
            answers = {"USERNAME": user, "PASSWORD": password}
        if step.startswith("SELECT_CHALLENGE/"):
            answers["ANSWER"] = step.split("/")[1]
            try:
                response = self.respond(challenge, answers, "SELECT_CHALLENGE")
            except ClientError as error:
                # Cognito refused the selection itself (a factor it did not offer): the flow is
                # still at the selection, so the client goes back to it. Any other error (no
                # answer, a 5xx, a Lambda's error) leaves the user at the password, to try again.
                if error.response.get("Error", {}).get("Code") == "InvalidParameterException":
                    self.challenge = challenge.extra["selection"]
                raise
        else:
            response = self.respond(challenge, answers, step)
        return self.handle(response, self.flow_username, srp, password)

    def start_totp_setup(self, challenge):
        associated = self.send("associate_software_token", Session=challenge.session)
        secret = associated.get("SecretCode")
        if not secret:
            raise AdapterError("SignInError.invalidServiceResponse", "AssociateSoftwareToken returned no SecretCode")
        self.secrets.add(secret)
        new = self.local_step(challenge, "MFA_SETUP/SOFTWARE_TOKEN_MFA")
        new.totp_secret = secret
        new.setup_session = associated.get("Session") or challenge.session
        return new

    def handle(self, response, username, srp, password):
        """Turns Cognito's answer into the client's state; answers PASSWORD_VERIFIER and the
        device challenges inside the client, as they have no step."""
        while True:
            name = response.get("ChallengeName")
            if "AuthenticationResult" in response and not name:
                self.confirm_new_device(response["AuthenticationResult"], username)
                self.tokens = response["AuthenticationResult"]
                self.challenge = None
                return {"step": "AuthenticationResult"}
            if not name:
                # (botocore parses an unreadable 200 body as {}.) The client stays where it was.
                raise AdapterError(
                    "SignInError.invalidServiceResponse", "the answer has neither AuthenticationResult nor ChallengeName"
                )
            parameters = response.get("ChallengeParameters") or {}
            session = response.get("Session")
            if name == "PASSWORD_VERIFIER" and srp is not None:
                answers = srp.process_challenge(parameters, {"USERNAME": username})
                if self.devices.get(username):
                    answers["DEVICE_KEY"] = self.devices[username][0]
                request = {"ClientId": self.client_id, "ChallengeName": name, "ChallengeResponses": answers}
                if session:
                    request["Session"] = session
                response = self.send("respond_to_auth_challenge", **request)
                srp = None
                continue
            if name == "DEVICE_SRP_AUTH":
                response = self.answer_device_challenge(response, username)
                continue
            user = parameters.get("USERNAME") or parameters.get("USER_ID_FOR_SRP") or username
            challenge = Challenge(name, name, session, parameters, user)
            if name in CODE_KEYS or name in ("CUSTOM_CHALLENGE", "NEW_PASSWORD_REQUIRED", "PASSWORD", "PASSWORD_SRP"):
                pass
            elif name == "SELECT_MFA_TYPE":
                challenge.options = sorted(json_list(parameters.get("MFAS_CAN_CHOOSE")))
            elif name == "SELECT_CHALLENGE":
                challenge.options = sorted(response.get("AvailableChallenges") or [])
            elif name == "MFA_SETUP":
                # Through MFA_SETUP a client can set up a software token (AssociateSoftwareToken)
                # or email (the EMAIL answer); SMS needs a phone number set elsewhere.
                setup = [t for t in json_list(parameters.get("MFAS_CAN_SETUP")) if t in ("SOFTWARE_TOKEN_MFA", "EMAIL_OTP")]
                if setup == ["SOFTWARE_TOKEN_MFA"]:
                    challenge = self.start_totp_setup(challenge)
                elif setup == ["EMAIL_OTP"]:
                    challenge = self.local_step(challenge, "MFA_SETUP/EMAIL_OTP")
                elif setup:
                    challenge.options = sorted(setup)
                else:
                    self.challenge = None
                    raise AdapterError(
                        "UnsupportedError",
                        f"MFA_SETUP offers {parameters.get('MFAS_CAN_SETUP', '[]')}, none of which this client can set up",
                    )
            elif name == "WEB_AUTHN":
                self.challenge = None
                raise AdapterError("UnsupportedError", "WEB_AUTHN needs a passkey authenticator, which this client does not have")
            else:
                self.challenge = None
                raise AdapterError("UnknownChallengeError", f"Cognito asked for a challenge this client does not know: {name}")
            if "CODE_DELIVERY_DELIVERY_MEDIUM" in parameters or "CODE_DELIVERY_DESTINATION" in parameters:
                medium = parameters.get("CODE_DELIVERY_DELIVERY_MEDIUM", "")
                challenge.delivery = {
                    "medium": medium if medium in ("SMS", "EMAIL") else "UNKNOWN",
                    "destination": parameters.get("CODE_DELIVERY_DESTINATION", ""),
                }
            self.challenge = challenge
            return self.observe_challenge()

    def answer_device_challenge(self, response, username):
        device = self.devices.get(username)
        if not device:
            self.challenge = None
            raise AdapterError("SignInError.invalidServiceResponse", "DEVICE_SRP_AUTH, but no device is remembered for this user")
        self.secrets.add(device[2])
        srp = self.srp(username, None, device)
        parameters = response.get("ChallengeParameters") or {}
        name = parameters.get("USERNAME") or username
        request = {
            "ClientId": self.client_id,
            "ChallengeName": "DEVICE_SRP_AUTH",
            "ChallengeResponses": {"USERNAME": name, "DEVICE_KEY": device[0], "SRP_A": long_to_hex(srp.large_a_value)},
        }
        if response.get("Session"):
            request["Session"] = response["Session"]
        verifier = self.send("respond_to_auth_challenge", **request)
        if verifier.get("ChallengeName") != "DEVICE_PASSWORD_VERIFIER":
            return verifier
        answers = srp.process_device_challenge(verifier.get("ChallengeParameters") or {})
        request = {"ClientId": self.client_id, "ChallengeName": "DEVICE_PASSWORD_VERIFIER", "ChallengeResponses": answers}
        if verifier.get("Session"):
            request["Session"] = verifier["Session"]
        return self.send("respond_to_auth_challenge", **request)

    def confirm_new_device(self, result, username):
        metadata = result.get("NewDeviceMetadata")
        if not metadata or not result.get("AccessToken"):
            return
        key, group = metadata.get("DeviceKey"), metadata.get("DeviceGroupKey", "")
        password, verifier = generate_hash_device(group, key)
        try:
            self.cognito.confirm_device(
                AccessToken=result["AccessToken"], DeviceKey=key, DeviceSecretVerifierConfig=verifier,
                DeviceName=DEVICE_NAME,
            )
        except (ClientError, botocore.exceptions.BotoCoreError) as error:
            log(f"ConfirmDevice failed, the device is not remembered: {type(error).__name__}")
            return
        self.devices[username] = (key, group, password)

    def observe_challenge(self):
        c = self.challenge
        observation = {"step": c.step}
        if c.delivery:
            observation["delivery"] = c.delivery
        if c.options is not None:
            observation["options"] = c.options
        if c.totp_secret:
            observation["totpSecret"] = c.totp_secret
            observation["totpUsername"] = self.flow_username
        if c.step in ("CUSTOM_CHALLENGE", "SMS_MFA", "NEW_PASSWORD_REQUIRED"):
            info = {
                k: str(v) for k, v in c.parameters.items()
                if not k.startswith("CODE_DELIVERY") and k not in ("USERNAME", "USER_ID_FOR_SRP")
            }
            if info:
                observation["challengeParameters"] = info
        return observation

    def current_step(self):
        if self.challenge is not None:
            return self.challenge.step
        return "AuthenticationResult" if self.tokens else None

    def redact(self, text):
        for secret in sorted(self.secrets, key=len, reverse=True):
            if secret and len(secret) >= 3:
                text = text.replace(secret, "[redacted]")
        return text


def json_list(text):
    try:
        values = json.loads(text or "[]")
    except ValueError:
        return []
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []


def log(message):
    print(f"boto3-adapter: {message}", file=sys.stderr, flush=True)


class Adapter:
    def __init__(self, timeout):
        self.timeout = timeout
        self.cognito = None
        self.client = None

    def hello(self, request):
        endpoint = request["endpoint"]
        self.cognito = boto3.session.Session().client(
            "cognito-idp", region_name="us-east-1", endpoint_url=endpoint,
            aws_access_key_id="signin-spec", aws_secret_access_key="signin-spec",
            config=Config(
                retries={"total_max_attempts": 1, "mode": "standard"},
                connect_timeout=self.timeout, read_timeout=self.timeout,
                max_pool_connections=4,
            ),
        )
        return {
            "type": "hello", "protocol": 1, "client": CLIENT, "steps": STEPS,
            "capabilities": {"flows": FLOWS, "challenges": CHALLENGES},
        }

    def observation(self, body=None, error=None):
        client = self.client
        answer = {"type": "observation", "step": None, "error": None, "delivery": None, "isSignedIn": False}
        if client is not None:
            answer["step"] = client.current_step()
            answer["isSignedIn"] = client.tokens is not None
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
                # A 5xx without a Cognito error body: botocore names it by the status code.
                kind, message = "SignInError.invalidServiceResponse", f"HTTP {status} without an error body"
            elif kind in FLOW_ENDING:
                client.challenge = None
        except ParamValidationError as error:
            kind, message = "ValidationError", str(error)
        except (EndpointConnectionError, ConnectionClosedError, ReadTimeoutError, HTTPClientError) as error:
            kind, message = "NetworkError", str(error)
        except botocore.exceptions.ConnectTimeoutError as error:
            kind, message = "NetworkError", str(error)
        except botocore.exceptions.ResponseParserError as error:
            kind, message = "SignInError.invalidServiceResponse", "the answer could not be read"
        except Exception as error:  # an answer the client could not use (a missing SRP value, …)
            log(f"unexpected {type(error).__name__} while handling Cognito's answer: {error!r}")
            kind, message = "SignInError.invalidServiceResponse", f"the answer could not be used ({type(error).__name__})"
        # The challenge the client was on stays (the user may answer again) unless the error
        # ended the flow; an error in signIn leaves no flow (sign_in cleared it first).
        return self.observation(error={"type": kind, "message": client.redact(message)})

    def handle(self, request):
        kind = request["type"]
        if kind == "hello":
            return self.hello(request)
        if kind == "reset":
            if self.cognito is None:
                return self.observation(error={"type": "InvalidStateError", "message": "reset before hello"})
            self.client = Client(self.cognito, request["poolId"], request["clientId"])
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
    write = sys.stdout.write
    flush = sys.stdout.flush
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
        write(json.dumps(answer) + "\n")
        flush()
    sys.exit(0)


if __name__ == "__main__":
    main()
