import CognitoWire
import Recordings
import SignInModel

/// A recording diagnosed: its exchanges split by user, each user's calls checked against the
/// model (`Diagnoser`).
package struct RecordingDiagnosis: Sendable {
  /// One flow of one user: from a sign-in (InitiateAuth) to the user's next.
  package struct Flow: Sendable {
    package let username: String
    /// The app client the user's requests name (two pools' users of one name are two users).
    package let clientId: String?
    /// Which of the user's flows this is (from 1), of how many.
    package let flow: Int
    package let flowsOfUser: Int
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
    // Each user's requests, split into flows at each InitiateAuth (a flow runs until the user's
    // next sign-in): each is checked on its own, as the user's configuration may change between
    // sign-ins. A recording may start mid-flow: its first flow is then checked from the steps its
    // first answer can be for (`Diagnoser.diagnose`).
    var flows: [Flow] = []
    for (user, exchanges) in byUser {
      var segments: [[RecordedExchange]] = []
      for exchange in exchanges {
        if exchange.operation == "InitiateAuth" || segments.isEmpty {
          segments.append([exchange])
        } else {
          segments[segments.count - 1].append(exchange)
        }
      }
      for (number, segment) in segments.enumerated() {
        let (calls, ignored) = reader.calls(segment)
        let verdict =
          calls.isEmpty
          ? Diagnoser.Verdict(kind: .inconclusive, reason: "no request of a sign-in flow")
          : diagnoser.diagnose(calls)
        flows.append(
          Flow(
            username: user.name, clientId: user.client, flow: number + 1, flowsOfUser: segments.count,
            requests: segment.map(\.request), ignored: ignored.map(\.request).sorted(), calls: calls, verdict: verdict))
      }
    }
    self.flows = flows
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
