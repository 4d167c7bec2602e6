import CognitoWire
import SimulatedCognito

/// What the simulated pool handed the client on the last exchange, and every secret in play:
/// a client must show the first faithfully and never show the second.
package struct SentValues: Sendable {
  /// The last challenge's parameters (delivery details, custom challenge parameters).
  package let parameters: [String: String]
  /// The TOTP secret AssociateSoftwareToken returned, if any.
  package let secretCode: String?
  /// The session ids the pool issued: secrets beside `fixedSecrets`.
  let sessions: [String]

  package init(_ state: SimulatedUserPool.State) {
    parameters = state.lastChallengeParameters
    secretCode = state.lastSecretCode
    sessions = state.issuedSessions
  }

  /// The secrets of every session: what the harness types and what the pool always issues.
  static let fixedSecrets: [(kind: Disagreement.SecretKind, value: String)] = [
    (.password, SimulatedUserPool.password), (.password, Harness.wrongPassword), (.password, Harness.newPassword),
    (.code, SimulatedUserPool.code), (.code, Harness.wrongCode),
    (.totpSecret, SimulatedUserPool.secretCode), (.token, SimulatedUserPool.accessToken),
  ]

  /// The kind of the first secret `text` contains. The text's bytes are read once, and whether
  /// they are ASCII; then each ASCII secret whose bytes do not occur is ruled out on the bytes
  /// (no character sequence can then occur either), and the rest are answered by `contains`.
  package func secret(in text: String) -> Disagreement.SecretKind? {
    var bytes = text
    return bytes.withUTF8 { t in
      let ascii = t.allSatisfy { $0 < 0x80 }
      for (k, secret) in Self.fixedSecrets.enumerated()
      where Self.contains(text, t, secret.value, textIsASCII: ascii, secretIsASCII: Self.fixedSecretIsASCII[k]) {
        return secret.kind
      }
      for session in sessions where Self.contains(text, t, session, textIsASCII: ascii) { return .session }
      return nil
    }
  }

  /// Whether each of `fixedSecrets` is ASCII.
  static let fixedSecretIsASCII = fixedSecrets.map { UTF8Search.isASCII($0.value) }

  /// `text.contains(secret)`, answered from `bytes` (the text's UTF-8) when both are ASCII
  /// (`textIsASCII` says whether `text` is) and the bytes do not occur (then no character
  /// sequence can); otherwise by `contains`.
  static func contains(
    _ text: String, _ bytes: UnsafeBufferPointer<UInt8>, _ secret: String, textIsASCII: Bool,
    secretIsASCII: Bool? = nil
  ) -> Bool {
    if textIsASCII, secretIsASCII ?? UTF8Search.isASCII(secret), !UTF8Search.contains(bytes, secret) {
      return false
    }
    return text.contains(secret)
  }
}
