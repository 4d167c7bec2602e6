import CognitoWire
import Foundation

/// WEB_AUTHN in test mode (USER_AUTH with `pool.allowWebAuthn` and `user.passkey`): the pool
/// sends CREDENTIAL_REQUEST_OPTIONS as Cognito does (a random challenge, the user's credential
/// id), and takes as the CREDENTIAL any JSON object whose `id` is the user's credential id and
/// whose `response.clientDataJSON` (base64url) carries `"type": "webauthn.get"` and the challenge
/// sent. The assertion's signature is not checked: no authenticator takes part, so a test client
/// can answer without one. A wrong credential is NotAuthorizedException.
extension SimulatedUserPool {
  /// The relying party the options name.
  package static let relyingParty = "localhost"

  /// The test credential id of the user's passkey: base64url of "signin-spec passkey <username>".
  package nonisolated var passkeyCredentialId: String {
    Base64URL.encode(Array("signin-spec passkey \(username)".utf8))
  }

  /// The WEB_AUTHN challenge with its request options.
  func webAuthnChallenge() -> JSONObject {
    let nonce = Base64URL.encode(codeRandom.bytes(32))
    let options: JSONValue = .object([
      "challenge": .string(nonce), "timeout": .number(180_000), "rpId": .string(Self.relyingParty),
      "allowCredentials": .array([.object(["type": .string("public-key"), "id": .string(passkeyCredentialId)])]),
      "userVerification": .string("required"),
    ])
    let text = String(decoding: (try? JSONEncoder().encode(options)) ?? Data("{}".utf8), as: UTF8.self)
    var session = Session(challenge: "WEB_AUTHN")
    session.webAuthnChallenge = nonce
    return challenge("WEB_AUTHN", session, parameters: ["CREDENTIAL_REQUEST_OPTIONS": text])
  }

  /// Checks a CREDENTIAL (test mode, see the type's notes); right, the tokens follow.
  func verifyPasskey(_ answers: StringFields, _ session: Session) throws(CognitoCallError) -> JSONObject {
    guard let text = answers["CREDENTIAL"] else {
      throw fail("InvalidParameterException", "Missing required parameter CREDENTIAL")
    }
    guard let credential = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.object else {
      throw fail("InvalidParameterException", "CREDENTIAL is not a JSON object")
    }
    let clientData = credential["response"]?.object?["clientDataJSON"]?.string.flatMap {
      Base64URL.decode($0, allowsPadding: true)
    }
    .flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }?.object
    guard credential["id"]?.string == passkeyCredentialId, clientData?["type"]?.string == "webauthn.get",
      clientData?["challenge"]?.string == session.webAuthnChallenge
    else { throw failedAttempt("NotAuthorizedException", "Incorrect username or password.") }
    return tokens
  }
}
