"""`signin-spec serve`'s tokens, remembered devices, users file and control endpoints, checked by
clients nobody here wrote: pycognito's `Cognito` class (it verifies the ID and access tokens
against the JWKS it fetches from `<endpoint>/<poolId>/.well-known/jwks.json`, and the issuer
against the same URL), pycognito's device SRP (`AWSSRP.confirm_device`, DEVICE_SRP_AUTH and
DEVICE_PASSWORD_VERIFIER in `authenticate_user`), boto3 and pyotp.

Where pycognito differs from Cognito's clients: `AWSSRP.confirm_device` and
`update_device_status` post to `https://cognito-idp.<region>.amazonaws.com/` whatever endpoint its
boto3 client was given, so the tests make the verifier with pycognito's `generate_hash_device`
and send ConfirmDevice with boto3. It answers DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER
without a Session (Cognito finds the flow by DEVICE_KEY and the secret block, and so does the
pool); it handles the device challenge only right after PASSWORD_VERIFIER, so a device
challenge after an MFA answer is answered here with boto3; `Cognito` checks `exp` against the
real time, so these tests run the server on the system clock (no --clock).
"""

import json
import pathlib
import urllib.error
import urllib.request

import jwt
import pyotp
import pytest
from botocore.exceptions import ClientError
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from pycognito import Cognito
from pycognito.aws_srp import AWSSRP, generate_hash_device
from pycognito.exceptions import SMSMFAChallengeException, SoftwareTokenMFAChallengeException

from test_serve_boto3 import CLIENT_ID, PASSWORD, USER, cognito, password_auth, serve

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEY = ROOT / "Tests" / "Fixtures" / "signing-key.pem"


def pool_id(lines):
    return lines[1][len("pool id: ") :]


def pycognito_user(url, lines, username=USER, client_id=CLIENT_ID, pool=None):
    return Cognito(
        pool or pool_id(lines),
        client_id,
        username=username,
        boto3_client_kwargs={"endpoint_url": url, "aws_access_key_id": "x", "aws_secret_access_key": "x"},
    )


def control(url, method, path, body):
    request = urllib.request.Request(
        f"{url}/_signin-spec/{path}", data=json.dumps(body).encode(), method=method,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def test_cognito_class_signs_in_and_verifies_both_tokens_against_the_jwks():
    with serve(clock=None) as (url, lines):
        user = pycognito_user(url, lines)
        user.authenticate(password=PASSWORD)
        assert user.id_claims["cognito:username"] == USER
        assert user.id_claims["aud"] == CLIENT_ID
        assert user.access_claims["token_use"] == "access"
        assert user.access_claims["iss"] == f"{url}/{pool_id(lines)}"
        assert user.token_type == "Bearer"
        assert user.refresh_token.count(".") != 2  # opaque, as Cognito's
        assert user.get_user().username == USER


def test_cognito_class_totp_mfa_with_pyotp():
    settings = ["pool.mfa=required", "pool.totp=true", "user.totpRegistered=true"]
    with serve(*settings, clock=None) as (url, lines):
        secret = lines[3][len("totp secret (user): ") :]
        user = pycognito_user(url, lines)
        with pytest.raises(SoftwareTokenMFAChallengeException):
            user.authenticate(password=PASSWORD)
        user.respond_to_software_token_mfa_challenge(pyotp.TOTP(secret).now())
        assert user.access_claims["username"] == USER


def test_tokens_signed_with_the_given_key_verify_with_its_public_half():
    with serve(options=["--signing-key", str(KEY)], clock=None) as (url, lines):
        tokens = password_auth(cognito(url))["AuthenticationResult"]
        public = load_pem_private_key(KEY.read_bytes(), password=None).public_key()
        claims = jwt.decode(tokens["IdToken"], public, algorithms=["RS256"], audience=CLIENT_ID)
        assert claims["token_use"] == "id" and claims["sub"]
        with pytest.raises(jwt.InvalidSignatureError):
            jwt.decode(tokens["IdToken"][:-4] + "AAAA", public, algorithms=["RS256"], audience=CLIENT_ID)


def remember_device(url, lines, settings_answer=None):
    """Signs in once with SRP (answering an SMS code if asked) and confirms the new device."""
    srp = AWSSRP(username=USER, password=PASSWORD, pool_id=pool_id(lines), client_id=CLIENT_ID, client=cognito(url))
    try:
        tokens = srp.authenticate_user()
    except SMSMFAChallengeException as challenge:
        code = settings_answer(url)
        tokens = cognito(url).respond_to_auth_challenge(
            ClientId=CLIENT_ID, ChallengeName="SMS_MFA", Session=challenge.get_tokens()["Session"],
            ChallengeResponses={"USERNAME": USER, "SMS_MFA_CODE": code},
        )
    metadata = tokens["AuthenticationResult"]["NewDeviceMetadata"]
    # pycognito's own verifier (generate_hash_device), sent with boto3: AWSSRP.confirm_device posts
    # to https://cognito-idp.<region>.amazonaws.com/ whatever endpoint the client was given.
    device_password, verifier = generate_hash_device(metadata["DeviceGroupKey"], metadata["DeviceKey"])
    confirmed = cognito(url).confirm_device(
        AccessToken=tokens["AuthenticationResult"]["AccessToken"], DeviceKey=metadata["DeviceKey"],
        DeviceSecretVerifierConfig=verifier, DeviceName="test",
    )
    assert confirmed["UserConfirmationNecessary"] is False
    return metadata["DeviceKey"], metadata["DeviceGroupKey"], device_password


def last_code(url):
    with urllib.request.urlopen(f"{url}/_signin-spec/messages?username={USER}") as answer:
        return json.load(answer)["messages"][-1]["code"]


def test_a_remembered_device_signs_in_by_device_srp(tmp_path):
    log = tmp_path / "requests.jsonl"
    with serve("pool.deviceTracking=always", options=["--log", str(log)]) as (url, lines):
        key, group, device_password = remember_device(url, lines)
        again = AWSSRP(
            username=USER, password=PASSWORD, pool_id=pool_id(lines), client_id=CLIENT_ID, client=cognito(url),
            device_key=key, device_group_key=group, device_password=device_password,
        ).authenticate_user()
        assert again["AuthenticationResult"]["AccessToken"]
        assert "NewDeviceMetadata" not in again["AuthenticationResult"]
        bad = AWSSRP(
            username=USER, password=PASSWORD, pool_id=pool_id(lines), client_id=CLIENT_ID, client=cognito(url),
            device_key=key, device_group_key=group, device_password="not-the-device-password",
        )
        with pytest.raises(ClientError) as raised:
            bad.authenticate_user()
        assert raised.value.response["Error"]["Code"] == "NotAuthorizedException"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0] == {"format": "signin-spec-request-log", "version": 1}
    device = [r for r in records[1:] if r["request"].get("ChallengeName") == "DEVICE_PASSWORD_VERIFIER"]
    assert [r["status"] for r in device] == [200, 400]
    assert device[0]["stepAfter"] == "done"
    text = log.read_text()
    assert PASSWORD not in text and device_password not in text


def test_a_remembered_device_replaces_sms_mfa_where_the_pool_says_so():
    settings = [
        "pool.mfa=required", "pool.sms=true", "user.phone=true", "pool.deviceTracking=always",
        "pool.deviceSuppressesMfa=true",
    ]
    with serve(*settings) as (url, lines):
        key, group, device_password = remember_device(url, lines, settings_answer=last_code)
        again = AWSSRP(
            username=USER, password=PASSWORD, pool_id=pool_id(lines), client_id=CLIENT_ID, client=cognito(url),
            device_key=key, device_group_key=group, device_password=device_password,
        ).authenticate_user()
        assert again["AuthenticationResult"]["AccessToken"]


def test_users_file_pools_and_users_endpoints(tmp_path):
    users = tmp_path / "users.yaml"
    users.write_text(
        "users:\n"
        "  - username: alice\n"
        "    password: Alice-Passw0rd\n"
        "    set: {user.totpRegistered: true, user.totpEnabled: true}\n"
        "    totpSecret: JBSWY3DPEHPK3PXP\n"
        "  - username: bob\n"
        "    password: Bob-Passw0rd\n"
    )
    with serve("pool.mfa=optional", "pool.totp=true", options=["--users", str(users)], clock=None,
               extra_lines=1) as (url, lines):
        assert lines[3] == "totp secret (alice): JBSWY3DPEHPK3PXP"
        client = cognito(url)
        alice = client.initiate_auth(AuthFlow="USER_PASSWORD_AUTH", ClientId=CLIENT_ID,
                                     AuthParameters={"USERNAME": "alice", "PASSWORD": "Alice-Passw0rd"})
        assert alice["ChallengeName"] == "SOFTWARE_TOKEN_MFA"
        bob = client.initiate_auth(AuthFlow="USER_PASSWORD_AUTH", ClientId=CLIENT_ID,
                                   AuthParameters={"USERNAME": "bob", "PASSWORD": "Bob-Passw0rd"})
        assert bob["AuthenticationResult"]["AccessToken"]
        with pytest.raises(ClientError) as raised:
            password_auth(client)  # "user" is not in the file
        assert raised.value.response["Error"]["Code"] == "UserNotFoundException"

        made = control(url, "POST", "pools", {"set": {"pool.mfa": "required", "pool.sms": True}})
        assert made["poolId"].startswith("us-east-1_") and made["poolId"] != pool_id(lines)
        control(url, "PUT", f"pools/{made['poolId']}/users/carol",
                {"password": "Carol-Passw0rd", "set": {"user.phone": True}})
        carol = client.initiate_auth(AuthFlow="USER_PASSWORD_AUTH", ClientId=made["clientId"],
                                     AuthParameters={"USERNAME": "carol", "PASSWORD": "Carol-Passw0rd"})
        assert carol["ChallengeName"] == "SMS_MFA"
        with urllib.request.urlopen(
            f"{url}/_signin-spec/messages?username=carol&poolId={made['poolId']}"
        ) as answer:
            code = json.load(answer)["messages"][-1]["code"]
        done = client.respond_to_auth_challenge(
            ClientId=made["clientId"], ChallengeName="SMS_MFA", Session=carol["Session"],
            ChallengeResponses={"USERNAME": "carol", "SMS_MFA_CODE": code},
        )
        carol_user = pycognito_user(url, lines, username="carol", client_id=made["clientId"], pool=made["poolId"])
        carol_user.verify_token(done["AuthenticationResult"]["IdToken"], "id_token", "id")
        assert carol_user.id_claims["cognito:username"] == "carol"
        # A session of one pool's user is not another's.
        with pytest.raises(ClientError) as raised:
            client.respond_to_auth_challenge(
                ClientId=CLIENT_ID, ChallengeName="SOFTWARE_TOKEN_MFA", Session=alice["Session"],
                ChallengeResponses={"USERNAME": "bob", "SOFTWARE_TOKEN_MFA_CODE": "123456"},
            )
        assert raised.value.response["Error"]["Code"] == "NotAuthorizedException"


def test_a_bad_control_request_names_its_field():
    with serve() as (url, _):
        for path, body, field in [
            ("pools", {"set": {"user.phone": True}}, "set"),
            ("pools", {"set": {"pool.mfa": "sometimes"}}, "set"),
            ("pools/us-east-1_sim/users/dave", {"set": {}}, "password"),
            ("pools/us-east-1_sim/users/dave", {"password": "x", "set": {"user.exists": False}}, "set"),
            ("pools/us-east-1_sim/users/dave", {"password": "x", "totpSecret": "not base32!"}, "totpSecret"),
        ]:
            method = "POST" if path == "pools" else "PUT"
            with pytest.raises(urllib.error.HTTPError) as raised:
                control(url, method, path, body)
            assert raised.value.code == 400
            assert json.load(raised.value)["field"] == field


def test_totp_set_up_after_sign_in_with_the_access_token():
    with serve("pool.mfa=optional", "pool.totp=true", clock=None) as (url, lines):
        user = pycognito_user(url, lines)
        user.authenticate(password=PASSWORD)
        secret = user.associate_software_token()
        assert user.verify_software_token(pyotp.TOTP(secret).now()) is True
        attributes = cognito(url).get_user(AccessToken=user.access_token)
        assert attributes["Username"] == USER


@pytest.mark.parametrize(
    "text,says",
    [
        ("users:\n  - username: a\n    password: p\n    set: {pool.mfa: required}\n", ":4: set: 'pool.mfa' is not a user. variable"),
        ("users:\n  - username: a\n    pasword: p\n", ":3: unknown key 'pasword'"),
        ("users:\n  - username: a\n    password: p\n    set:\n      user.phone: true\n      user.status: weird\n",
         ":6: 'weird' is not a value of 'user.status'"),
        ("users:\n  - username: a\n    password: p\n    set: {user.exists: false}\n", ":4: set: user.exists is not"),
        ("users:\n  - {username: a, password: p}\n  - {username: a, password: q}\n", "user 'a' is listed twice"),
        ("users:\n  - {username: a, password: p, totpSecret: 'not base32'}\n", "totpSecret: base32"),
        ("users: [1, 2\n", "not YAML"),
    ],
)
def test_a_bad_users_file_is_exit_64_naming_file_and_line(tmp_path, text, says):
    import subprocess
    from test_serve_boto3 import BINARY

    users = tmp_path / "users.yaml"
    users.write_text(text)
    done = subprocess.run([BINARY, "serve", "--port", "0", "--users", str(users)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 64
    assert str(users) in done.stderr and says in done.stderr, done.stderr


def test_the_request_log_keeps_a_selection_and_the_challenge_it_leads_to(tmp_path):
    """A SELECT_MFA_TYPE answer is a choice, not a secret: the log keeps it, and the challenge
    name it leads to (the same text) is not redacted either; the code still is."""
    log = tmp_path / "requests.jsonl"
    settings = ["pool.mfa=required", "pool.sms=true", "pool.totp=true", "user.phone=true", "user.totpRegistered=true"]
    with serve(*settings, options=["--log", str(log)]) as (url, lines):
        client = cognito(url)
        first = client.initiate_auth(ClientId=CLIENT_ID, AuthFlow="USER_PASSWORD_AUTH",
                                     AuthParameters={"USERNAME": USER, "PASSWORD": PASSWORD})
        assert first["ChallengeName"] == "SELECT_MFA_TYPE"
        chosen = client.respond_to_auth_challenge(ClientId=CLIENT_ID, ChallengeName="SELECT_MFA_TYPE",
                                                  Session=first["Session"],
                                                  ChallengeResponses={"USERNAME": USER, "ANSWER": "SMS_MFA"})
        assert chosen["ChallengeName"] == "SMS_MFA"
        code = last_code(url)
        client.respond_to_auth_challenge(ClientId=CLIENT_ID, ChallengeName="SMS_MFA", Session=chosen["Session"],
                                         ChallengeResponses={"USERNAME": USER, "SMS_MFA_CODE": code})
    records = [json.loads(line) for line in log.read_text().splitlines()][1:]
    assert records[1]["request"]["ChallengeResponses"]["ANSWER"] == "SMS_MFA"
    assert records[1]["response"]["ChallengeName"] == "SMS_MFA"
    assert records[2]["request"]["ChallengeResponses"]["SMS_MFA_CODE"] == "<redacted>"
    assert code not in log.read_text() and PASSWORD not in log.read_text()
