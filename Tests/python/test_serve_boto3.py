"""`signin-spec serve` driven by a third-party client: boto3's cognito-idp, with raw calls.

Starts the built binary (SIGNIN_SPEC_BIN, default .build/release/signin-spec) per pool
configuration on a free port, reads its start-up lines (no sleeps), and signs in with
initiate_auth / respond_to_auth_challenge / associate_software_token / verify_software_token.
SMS codes come from the outbox endpoint; TOTP codes from pyotp at the pool's fixed --clock.

Where boto3 and the model differ: botocore checks a request's Session against Cognito's
SessionType (at least 20 characters) before sending it, so the pool's generated-codes mode
pads its session ids to 20 characters (the fixed mode's "sim-session-1" would be refused
client-side). Nothing else differed.
"""

import contextlib
import datetime
import json
import os
import pathlib
import subprocess
import urllib.request

import boto3
import pyotp
import pytest
from botocore.exceptions import ClientError

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SIGNIN_SPEC_BIN", str(ROOT / ".build" / "release" / "signin-spec"))
CLOCK = "2026-01-01T00:00:00Z"
NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
CLIENT_ID = "signinspecsimulatedclient"
USER, PASSWORD = "user", "Passw0rd!"

SMS = ["pool.mfa=required", "pool.sms=true", "user.phone=true"]
TOTP = ["pool.mfa=required", "pool.totp=true", "user.totpRegistered=true"]
TOTP_SETUP = ["pool.mfa=required", "pool.totp=true"]


@contextlib.contextmanager
def serve(*settings, options=(), clock=CLOCK, extra_lines=None):
    """Runs `signin-spec serve` with `settings` (and `options`); yields (endpoint URL, start-up
    lines). `extra_lines` is how many lines follow the first three (default: the TOTP secret
    line where the default user has one). `clock` None: the server's clock is the system's."""
    command = [BINARY, "serve", "--port", "0", "--seed", "1", *options]
    if clock:
        command += ["--clock", clock]
    for setting in settings:
        command += ["--set", setting]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline().rstrip("\n") for _ in range(3)]
        assert lines[0].startswith("listening on http://"), lines
        if extra_lines is None:
            extra_lines = 1 if "user.totpRegistered=true" in settings else 0
        lines += [process.stdout.readline().rstrip("\n") for _ in range(extra_lines)]
        yield lines[0][len("listening on ") :], lines
    finally:
        process.terminate()
        assert process.wait(timeout=30) == 0


def cognito(url):
    return boto3.client(
        "cognito-idp",
        region_name="us-east-1",
        endpoint_url=url,
        aws_access_key_id="x",
        aws_secret_access_key="x",
    )


def password_auth(client, password=PASSWORD):
    return client.initiate_auth(
        AuthFlow="USER_PASSWORD_AUTH",
        ClientId=CLIENT_ID,
        AuthParameters={"USERNAME": USER, "PASSWORD": password},
    )


def messages(url):
    with urllib.request.urlopen(f"{url}/_signin-spec/messages?username={USER}") as answer:
        return json.load(answer)["messages"]


def test_password_without_mfa():
    with serve() as (url, _):
        answer = password_auth(cognito(url))
        assert "ChallengeName" not in answer
        assert answer["AuthenticationResult"]["AccessToken"]


def test_wrong_password_is_not_authorized():
    with serve() as (url, _):
        with pytest.raises(ClientError) as raised:
            password_auth(cognito(url), password="wrong-password")
        assert raised.value.response["Error"]["Code"] == "NotAuthorizedException"


def test_sms_mfa_with_the_code_from_the_outbox():
    with serve(*SMS) as (url, _):
        client = cognito(url)
        challenge = password_auth(client)
        assert challenge["ChallengeName"] == "SMS_MFA"
        sent = messages(url)
        assert [m["medium"] for m in sent] == ["SMS"]
        assert sent[0]["destination"] == challenge["ChallengeParameters"]["CODE_DELIVERY_DESTINATION"]
        answer = client.respond_to_auth_challenge(
            ClientId=CLIENT_ID,
            ChallengeName="SMS_MFA",
            Session=challenge["Session"],
            ChallengeResponses={"USERNAME": USER, "SMS_MFA_CODE": sent[0]["code"]},
        )
        assert answer["AuthenticationResult"]["AccessToken"]


def test_totp_mfa_with_pyotp():
    with serve(*TOTP) as (url, lines):
        assert lines[3].startswith("totp secret (user): ")
        secret = lines[3][len("totp secret (user): ") :]
        client = cognito(url)
        challenge = password_auth(client)
        assert challenge["ChallengeName"] == "SOFTWARE_TOKEN_MFA"
        answer = client.respond_to_auth_challenge(
            ClientId=CLIENT_ID,
            ChallengeName="SOFTWARE_TOKEN_MFA",
            Session=challenge["Session"],
            ChallengeResponses={"USERNAME": USER, "SOFTWARE_TOKEN_MFA_CODE": pyotp.TOTP(secret).at(NOW)},
        )
        assert answer["AuthenticationResult"]["AccessToken"]


def test_totp_setup_with_pyotp():
    with serve(*TOTP_SETUP) as (url, _):
        client = cognito(url)
        challenge = password_auth(client)
        assert challenge["ChallengeName"] == "MFA_SETUP"
        associated = client.associate_software_token(Session=challenge["Session"])
        secret = associated["SecretCode"]
        verified = client.verify_software_token(Session=associated["Session"], UserCode=pyotp.TOTP(secret).at(NOW))
        assert verified["Status"] == "SUCCESS"
        answer = client.respond_to_auth_challenge(
            ClientId=CLIENT_ID,
            ChallengeName="MFA_SETUP",
            Session=verified["Session"],
            ChallengeResponses={"USERNAME": USER},
        )
        assert answer["AuthenticationResult"]["AccessToken"]


def test_a_timeout_fault_holds_the_request_until_the_client_gives_up():
    from botocore.config import Config
    from botocore.exceptions import ReadTimeoutError

    with serve(options=["--timeout-fault-seconds", "20"]) as (url, _):
        body = json.dumps({"username": USER, "operation": "InitiateAuth", "fault": "timeout"}).encode()
        request = urllib.request.Request(f"{url}/_signin-spec/faults", data=body, method="POST")
        with urllib.request.urlopen(request) as answer:
            assert json.load(answer)["fault"] == "timeout"
        impatient = boto3.client(
            "cognito-idp", region_name="us-east-1", endpoint_url=url, aws_access_key_id="x",
            aws_secret_access_key="x", config=Config(read_timeout=0.5, retries={"total_max_attempts": 1}),
        )
        with pytest.raises(ReadTimeoutError):
            password_auth(impatient)
        assert password_auth(cognito(url))["AuthenticationResult"]["AccessToken"]


def inject(url, lines, action):
    """Does `action` (a control body) to the default user of the served pool."""
    pool = lines[1][len("pool id: ") :]
    request = urllib.request.Request(
        f"{url}/_signin-spec/pools/{pool}/users/{USER}/inject", data=json.dumps(action).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


@pytest.mark.parametrize(
    "action, challenge",
    [({"action": "unknownChallenge"}, "FUTURE_CHALLENGE_2027"), ({"action": "deviceChallenge"}, "DEVICE_SRP_AUTH")],
)
def test_an_injected_challenge_answers_the_next_call_whatever_it_asks(action, challenge):
    # The models' unknownChallenge and unexpectedDeviceChallenge: what a client sees on the wire.
    with serve(*SMS) as (url, lines):
        inject(url, lines, action)
        answer = password_auth(cognito(url), password="wrong-password")
        assert answer["ChallengeName"] == challenge
        assert len(answer["Session"]) >= 20
        # Once: the next sign-in is served as usual.
        assert password_auth(cognito(url))["ChallengeName"] == "SMS_MFA"


@pytest.mark.parametrize("error", ["NotAuthorizedException", "ConcurrentModificationException"])
def test_associate_software_token_refused_with_a_named_error(error):
    # The models' setupError: AssociateSoftwareToken answers one of its documented errors by name.
    with serve(*TOTP_SETUP) as (url, lines):
        client = cognito(url)
        setup = password_auth(client)
        assert setup["ChallengeName"] == "MFA_SETUP"
        inject(url, lines, {"action": "operationFault", "operation": "AssociateSoftwareToken", "error": error,
                            "count": 1})
        with pytest.raises(ClientError) as raised:
            client.associate_software_token(Session=setup["Session"])
        assert raised.value.response["Error"]["Code"] == error
