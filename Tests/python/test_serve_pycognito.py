"""`signin-spec serve` checked by pycognito's SRP: a third-party implementation of Cognito's
USER_SRP_AUTH (pycognito.aws_srp.AWSSRP, its own SRP-6a arithmetic and PASSWORD_CLAIM
signature), over boto3, against the pool's server-side SRP.

pycognito takes the region and the pool name from the pool id (`us-east-1_sim`), as Cognito's
clients do. Its AWSSRP raises for the challenges that follow the password (SMS_MFA,
SOFTWARE_TOKEN_MFA, NEW_PASSWORD_REQUIRED), handing over Cognito's answer; the tests answer
them with boto3, as a pycognito user does. The `Cognito` class's token verification is not
used: `serve`'s tokens are not JWTs yet (docs/guide/serve.md).
"""

import pyotp
import pytest
from botocore.exceptions import ClientError
from pycognito.aws_srp import AWSSRP
from pycognito.exceptions import (
    ForceChangePasswordException,
    SMSMFAChallengeException,
    SoftwareTokenMFAChallengeException,
)

from test_serve_boto3 import CLIENT_ID, NOW, PASSWORD, SMS, TOTP, USER, cognito, messages, serve


def srp(url, lines, password=PASSWORD):
    pool_id = lines[1][len("pool id: ") :]
    assert pool_id.startswith("us-east-1_"), lines
    return AWSSRP(username=USER, password=password, pool_id=pool_id, client_id=CLIENT_ID, client=cognito(url))


def test_srp_without_mfa_signs_in():
    with serve() as (url, lines):
        tokens = srp(url, lines).authenticate_user()
        assert tokens["AuthenticationResult"]["AccessToken"]


def test_srp_with_a_wrong_password_is_not_authorized():
    with serve() as (url, lines):
        with pytest.raises(ClientError) as raised:
            srp(url, lines, password="Wrong0rd!").authenticate_user()
        assert raised.value.response["Error"]["Code"] == "NotAuthorizedException"


def test_srp_then_sms_mfa():
    with serve(*SMS) as (url, lines):
        with pytest.raises(SMSMFAChallengeException) as raised:
            srp(url, lines).authenticate_user()
        challenge = raised.value.get_tokens()
        code = messages(url)[-1]["code"]
        answer = cognito(url).respond_to_auth_challenge(
            ClientId=CLIENT_ID,
            ChallengeName="SMS_MFA",
            Session=challenge["Session"],
            ChallengeResponses={"USERNAME": USER, "SMS_MFA_CODE": code},
        )
        assert answer["AuthenticationResult"]["AccessToken"]


def test_srp_then_totp_mfa():
    with serve(*TOTP) as (url, lines):
        secret = lines[3][len("totp secret (user): ") :]
        with pytest.raises(SoftwareTokenMFAChallengeException) as raised:
            srp(url, lines).authenticate_user()
        challenge = raised.value.get_tokens()
        answer = cognito(url).respond_to_auth_challenge(
            ClientId=CLIENT_ID,
            ChallengeName="SOFTWARE_TOKEN_MFA",
            Session=challenge["Session"],
            ChallengeResponses={"USERNAME": USER, "SOFTWARE_TOKEN_MFA_CODE": pyotp.TOTP(secret).at(NOW)},
        )
        assert answer["AuthenticationResult"]["AccessToken"]


def test_srp_then_new_password_required():
    with serve("user.status=forceChangePassword") as (url, lines):
        with pytest.raises(ForceChangePasswordException):
            srp(url, lines).authenticate_user()
