import CognitoWire
import Recordings
import SignInModel

/// A recording diagnosed: its exchanges split by user, each user's calls checked against the
/// model (`Diagnoser`).
package struct RecordingDiagnosis: Sendable {
  /// One user's part of the recording.
  package struct Flow: Sendable {
    package let username: String
    /// The app client the user's requests name (two pools' users of one name are two flows).
    package let clientId: String?
    /// The numbers of its Cognito requests (from 1, in file order).
    package let requests: [Int]
    /// Requests of this user that belong to no call (device confirmation after a sign-in, an
    /// internal answer with nothing before it, requests before the first InitiateAuth).
    package let ignored: [Int]
    package let calls: [ObservedCall]
    package let verdict: Diagnoser.Verdict
  }

  /// A user, by name and app client.
  struct UserKey: Hashable {
    let name: String
    let client: String?
  }

  package let recording: Recording
  package let flows: [Flow]
  /// The secret fields the recording holds (never printed): passwords, codes, SRP values,
  /// sessions, tokens.
  package let redacted: [String]

  /// Field names whose values are secrets (as `serve`'s request log redacts them).
  static let secretKeys: Set<String> = [
    "PASSWORD", "NEW_PASSWORD", "SMS_MFA_CODE", "SOFTWARE_TOKEN_MFA_CODE", "EMAIL_OTP_CODE", "SMS_OTP_CODE",
    "ANSWER", "PASSWORD_CLAIM_SIGNATURE", "PASSWORD_CLAIM_SECRET_BLOCK", "SECRET_BLOCK", "SECRET_HASH", "UserCode",
    "AccessToken", "IdToken", "RefreshToken", "SecretCode", "Session", "SRP_A", "SRP_B", "SALT", "DEVICE_KEY",
    "DeviceKey", "DeviceGroupKey", "PasswordVerifier", "Salt",
  ]

  package init(_ recording: Recording, diagnoser: Diagnoser) {
    self.recording = recording
    // Each request's user: the one it names, else the one whose session it carries.
    var userOfSession: [String: UserKey] = [:]
    var byUser: [(UserKey, [RecordedExchange])] = []
    var secrets = Set<String>()
    for exchange in recording.exchanges {
      Self.collectSecrets(.object(exchange.body), into: &secrets)
      if let response = exchange.response { Self.collectSecrets(.object(response), into: &secrets) }
      let session = exchange.body["Session"]?.string
      // A user of one app client: the same name in two pools is two users.
      let named = exchange.username.map { UserKey(name: $0, client: exchange.body["ClientId"]?.string) }
      let user = named ?? session.flatMap { userOfSession[$0] } ?? UserKey(name: "(unknown user)", client: nil)
      if let next = exchange.response?["Session"]?.string { userOfSession[next] = user }
      if let index = byUser.firstIndex(where: { $0.0 == user }) {
        byUser[index].1.append(exchange)
      } else {
        byUser.append((user, [exchange]))
      }
    }
    let reader = CallReader(model: diagnoser.model)
    flows = byUser.map { user, exchanges in
      // A recording that starts mid-flow: the requests before the first InitiateAuth cannot be
      // placed in the model, so they are left out (and listed).
      // A recording may start mid-flow: its first call is then checked from the steps it can
      // answer (`Diagnoser.diagnose`).
      let (calls, ignored) = reader.calls(exchanges)
      let skipped = ignored.map(\.request)
      let verdict =
        calls.isEmpty
        ? Diagnoser.Verdict(kind: .inconclusive, reason: "no request of a sign-in flow")
        : diagnoser.diagnose(calls)
      return Flow(
        username: user.name, clientId: user.client, requests: exchanges.map(\.request), ignored: skipped.sorted(),
        calls: calls, verdict: verdict)
    }
    redacted = secrets.sorted()
  }

  static func collectSecrets(_ value: JSONValue, into found: inout Set<String>) {
    switch value {
    case .object(let object):
      for (key, member) in object {
        if secretKeys.contains(key) { found.insert(key) }
        collectSecrets(member, into: &found)
      }
    case .array(let items):
      for item in items { collectSecrets(item, into: &found) }
    default: break
    }
  }
}
