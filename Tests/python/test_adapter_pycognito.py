"""The pycognito client adapter (adapters/pycognito/adapter.py) in real conversations with
`signin-spec serve` (helpers and the module's server from test_adapter_boto3): SRP sign-in,
pycognito's challenge exceptions as steps, its answers, its token verification against the
server's key set, a remembered device confirmed through boto3, and what pycognito does not
handle (reported as UnknownChallengeError; its flows other than SRP as UnsupportedError).
"""

import sys

import pyotp
import pytest

from test_adapter_boto3 import (  # noqa: F401  (server is a fixture)
    PASSWORD,
    ROOT,
    Adapter,
    assert_no_secret,
    codes,
    fault,
    future_cognito,
    make_pool,
    server,
)

PYCOGNITO_ADAPTER = [sys.executable, str(ROOT / "adapters" / "pycognito" / "adapter.py")]


@pytest.fixture
def adapter(server):
    adapter = Adapter(PYCOGNITO_ADAPTER, server)
    yield adapter
    if adapter.process.poll() is None:
        adapter.process.kill()
        adapter.process.wait()


def test_hello_lists_only_srp(adapter):
    hello = adapter.hello
    assert hello["client"].startswith("pycognito ")
    assert hello["capabilities"]["flows"] == ["userSRP"]
    assert "SMS_MFA" in hello["capabilities"]["challenges"]
    assert "SELECT_MFA_TYPE" not in hello["capabilities"]["challenges"]


def test_srp_without_mfa_verifies_the_tokens_then_signs_out(server, adapter):
    adapter.reset(make_pool(server))
    done = adapter.sign_in("userSRP")
    assert adapter.step(done) == "done" and done["isSignedIn"] is True and done["error"] is None
    out = adapter.sign_out()
    assert out["step"] is None and out["isSignedIn"] is False


def test_wrong_password(server, adapter):
    adapter.reset(make_pool(server))
    wrong = adapter.sign_in("userSRP", password="Wr0ngPassw0rd!")
    assert wrong["error"]["type"] == "NotAuthorizedException" and wrong["step"] is None
    assert_no_secret(wrong, "Wr0ngPassw0rd!")


def test_other_flows_are_unsupported(server, adapter):
    adapter.reset(make_pool(server))
    answer = adapter.sign_in("userPassword")
    assert answer["error"]["type"] == "UnsupportedError" and answer["step"] is None


def test_sms_mfa_wrong_code_stays_then_right_code(server, adapter):
    pool = make_pool(server, {"pool.mfa": "required", "pool.sms": True}, {"user.phone": True})
    adapter.reset(pool)
    challenge = adapter.sign_in("userSRP")
    assert challenge["step"] == "SMSMFAChallengeException"
    assert adapter.step(challenge) == "confirmSignInWithSMSMFACode"
    assert challenge["delivery"]["medium"] == "SMS"
    code = codes(server, pool[0])[-1]
    wrong_code = "000000" if code != "000000" else "000001"
    wrong = adapter.confirm(wrong_code)
    assert wrong["error"]["type"] == "CodeMismatchException" and wrong["step"] == "SMSMFAChallengeException"
    assert_no_secret(wrong, wrong_code, "sess-")
    done = adapter.confirm(code)
    assert adapter.step(done) == "done" and done["isSignedIn"] is True


def test_totp_mfa_with_a_registered_secret(server, adapter):
    secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    pool = make_pool(server, {"pool.mfa": "required", "pool.totp": True}, {"user.totpRegistered": True},
                     totpSecret=secret)
    adapter.reset(pool)
    challenge = adapter.sign_in("userSRP")
    assert adapter.step(challenge) == "confirmSignInWithTOTPCode"
    done = adapter.confirm(pyotp.TOTP(secret).now())
    assert adapter.step(done) == "done" and done["isSignedIn"] is True


def test_totp_setup_is_a_challenge_pycognito_does_not_handle(server, adapter):
    adapter.reset(make_pool(server, {"pool.mfa": "required", "pool.totp": True}))
    setup = adapter.sign_in("userSRP")
    assert setup["error"]["type"] == "UnknownChallengeError" and "MFA_SETUP" in setup["error"]["message"]
    assert setup["step"] is None and setup["isSignedIn"] is False


def test_new_password_signs_in_again_with_the_old_password(server, adapter):
    adapter.reset(make_pool(server, user={"user.status": "forceChangePassword"}))
    step = adapter.sign_in("userSRP")
    assert adapter.step(step) == "confirmSignInWithNewPassword" and step["error"] is None
    short = adapter.confirm("short")
    assert short["error"]["type"] == "InvalidPasswordException"
    # The session of the sign-in new_password_challenge makes inside pycognito is not shown either.
    assert_no_secret(short, "short", "sess-", PASSWORD)
    assert adapter.step(short) == "confirmSignInWithNewPassword"
    done = adapter.confirm("NewPassw0rd!")
    assert adapter.step(done) == "done" and done["isSignedIn"] is True


def test_a_closed_connection_is_a_network_error(server, adapter):
    pool = make_pool(server)
    adapter.reset(pool)
    fault(server, pool[0], "InitiateAuth", "reset")
    lost = adapter.sign_in("userSRP")
    assert lost["error"]["type"] == "NetworkError" and lost["step"] is None
    assert adapter.step(adapter.sign_in("userSRP")) == "done"


def test_confirm_without_a_challenge_and_reset(server, adapter):
    pool = make_pool(server)
    adapter.reset(pool)
    assert adapter.confirm("123456")["error"]["type"] == "InvalidStateError"
    assert adapter.sign_in("userSRP")["isSignedIn"] is True
    adapter.reset(pool)  # checks step null, no error, isSignedIn false


def test_a_remembered_device_answers_the_device_challenges(server, adapter):
    pool = make_pool(server, {"pool.deviceTracking": "always"})
    adapter.reset(pool)
    assert adapter.step(adapter.sign_in("userSRP")) == "done"  # NewDeviceMetadata: ConfirmDevice via boto3
    adapter.sign_out()
    second = adapter.sign_in("userSRP")  # DEVICE_SRP_AUTH, DEVICE_PASSWORD_VERIFIER inside authenticate_user
    assert adapter.step(second) == "done" and second["isSignedIn"] is True


def test_stdin_closed_exits_0_and_bad_json_exits_65(server):
    adapter = Adapter(PYCOGNITO_ADAPTER, server)
    assert adapter.close() == 0
    adapter = Adapter(PYCOGNITO_ADAPTER, server)
    adapter.process.stdin.write('{"id": 2, "type": "dance"}\n')
    adapter.process.stdin.flush()
    assert adapter.process.wait(timeout=30) == 65
    adapter.close()


def test_no_device_is_remembered_after_an_mfa_sign_in(server, adapter):
    # respond_to_sms_mfa_challenge keeps only the tokens (_set_tokens): the answer's
    # NewDeviceMetadata is dropped, so the device is never confirmed and MFA is asked again.
    pool = make_pool(server, {"pool.deviceTracking": "always", "pool.mfa": "required", "pool.sms": True,
                              "pool.deviceSuppressesMfa": True}, {"user.phone": True})
    adapter.reset(pool)
    adapter.sign_in("userSRP")
    assert adapter.step(adapter.confirm(codes(server, pool[0])[-1])) == "done"
    adapter.sign_out()
    again = adapter.sign_in("userSRP")
    assert adapter.step(again) == "confirmSignInWithSMSMFACode"


def test_mfa_after_a_new_password_is_a_challenge_pycognito_does_not_handle(server, adapter):
    pool = make_pool(server, {"pool.mfa": "required", "pool.sms": True},
                     {"user.phone": True, "user.status": "forceChangePassword"})
    adapter.reset(pool)
    assert adapter.step(adapter.sign_in("userSRP")) == "confirmSignInWithNewPassword"
    answer = adapter.confirm("NewPassw0rd!")
    assert answer["error"]["type"] == "UnknownChallengeError" and answer["step"] is None


def test_faults_at_a_challenge_keep_the_step(server, adapter):
    pool = make_pool(server, {"pool.mfa": "required", "pool.sms": True}, {"user.phone": True})
    adapter.reset(pool)
    adapter.sign_in("userSRP")
    code = codes(server, pool[0])[-1]
    for kind, error in (("reset", "NetworkError"), ("unreadable", "SignInError.invalidServiceResponse"),
                        ("status500", "SignInError.invalidServiceResponse")):
        fault(server, pool[0], "RespondToAuthChallenge", kind)
        failed = adapter.confirm(code)
        assert failed["error"]["type"] == error, failed
        assert adapter.step(failed) == "confirmSignInWithSMSMFACode"
    assert adapter.step(adapter.confirm(code)) == "done"


def test_an_unknown_first_challenge_is_pycognitos_not_implemented_error():
    with future_cognito() as url:
        adapter = Adapter(PYCOGNITO_ADAPTER, url)
        try:
            adapter.reset(("us-east-1_future", "futureclient"))
            answer = adapter.sign_in("userSRP")
            assert answer["error"]["type"] == "UnknownChallengeError" and answer["step"] is None
            assert "FUTURE_CHALLENGE_2027" in answer["error"]["message"]
        finally:
            assert adapter.close() == 0
