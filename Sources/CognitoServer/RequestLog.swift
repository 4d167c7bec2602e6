import CognitoWire
import Foundation

/// `serve --log FILE`: every Cognito request as one JSON line, in the recording format
/// (`{"operation", "request", "response", "status", "time"}`) plus the model step before and
/// after it and the configuration of the pool's user. The first line names the format:
/// `{"format": "signin-spec-request-log", "version": 1}`.
///
/// Secrets are redacted (passwords, codes, answers, SRP signatures, tokens, TOTP secrets,
/// device verifiers), also where an error message echoes them; each session becomes a stable
/// placeholder (`session#3`) so a reader can still follow a flow.
package actor RequestLog {
  package static let format = "signin-spec-request-log"
  package static let version = 1

  /// Field names whose values are secrets, wherever they appear.
  static let secretKeys: Set<String> = [
    "PASSWORD", "NEW_PASSWORD", "SMS_MFA_CODE", "SOFTWARE_TOKEN_MFA_CODE", "EMAIL_OTP_CODE", "SMS_OTP_CODE",
    "ANSWER", "PASSWORD_CLAIM_SIGNATURE", "PASSWORD_CLAIM_SECRET_BLOCK", "SECRET_BLOCK", "SECRET_HASH", "UserCode",
    "AccessToken", "IdToken", "RefreshToken", "SecretCode", "PasswordVerifier", "Salt", "SALT", "SRP_A", "SRP_B",
    "CREDENTIAL",
  ]
  /// Answers that are choices, not secrets (SELECT_MFA_TYPE, SELECT_CHALLENGE): kept.
  static let choiceChallenges: Set<String> = ["SELECT_MFA_TYPE", "SELECT_CHALLENGE"]

  private let handle: FileHandle
  /// The model step each open session stands at (by the session's real id).
  private var stepOfSession: [String: String] = [:]
  private var placeholders: [String: Int] = [:]
  private let stepFor: @Sendable (JSONObject) -> String?
  private let configurationOf: @Sendable (JSONObject) async -> [String: String]

  /// Opens `path` for writing (a new or regular file; it is replaced) and writes the header line.
  /// - Parameters:
  ///   - stepFor: the model step a Cognito answer leads to (nil: none the model names).
  ///   - configurationOf: the configuration of the user a request is for.
  package init(
    path: String, stepFor: @escaping @Sendable (JSONObject) -> String?,
    configurationOf: @escaping @Sendable (JSONObject) async -> [String: String]
  ) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      guard !isDirectory.boolValue, attributes[.type] as? FileAttributeType == .typeRegular else {
        throw LogError("\(path) exists and is not a regular file; --log replaces regular files only")
      }
    }
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw LogError("cannot create \(path)")
    }
    guard let handle = FileHandle(forWritingAtPath: path) else { throw LogError("cannot open \(path) for writing") }
    self.handle = handle
    self.stepFor = stepFor
    self.configurationOf = configurationOf
    let header: JSONValue = .object(["format": .string(Self.format), "version": .number(Double(Self.version))])
    handle.write(Data(CognitoExchange.encode(header)) + Data("\n".utf8))
  }

  package struct LogError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
  }

  /// Writes one exchange. `response` is the answer's JSON body (nil: no answer or not JSON).
  package func record(operation: String, request: JSONObject, status: Int?, response: JSONObject?, time: Date) async {
    let session = request["Session"]?.string
    let before = session.flatMap { stepOfSession[$0] } ?? (operation == "InitiateAuth" ? "signIn" : nil)
    var after = before
    if let response, status == 200 {
      if let step = stepFor(response) { after = step }
      if let next = response["Session"]?.string, let step = after { stepOfSession[next] = step }
    }
    if let session, status == 200, operation == "RespondToAuthChallenge" { stepOfSession[session] = nil }
    if stepOfSession.count > 100_000 { stepOfSession.removeAll() }
    let configuration = await configurationOf(request)
    let secrets = Self.secretValues(request, operation: operation)
    var line: JSONObject = [
      "operation": .string(operation), "request": redact(.object(request), secrets, choice: Self.isChoice(request)),
      "status": status.map { .number(Double($0)) } ?? .null,
      "response": response.map { redact(.object($0), secrets, choice: false) } ?? .null,
      "time": .string(Self.timeFormatter.string(from: time)),
      "configuration": .object(configuration.mapValues { .string($0) }),
    ]
    line["stepBefore"] = before.map { .string($0) } ?? .null
    line["stepAfter"] = after.map { .string($0) } ?? .null
    handle.write(Data(CognitoExchange.encode(.object(line))) + Data("\n".utf8))
  }

  nonisolated(unsafe) static let timeFormatter: ISO8601DateFormatter = {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter
  }()

  static func isChoice(_ request: JSONObject) -> Bool {
    request["ChallengeName"]?.string.map { choiceChallenges.contains($0) } ?? false
  }

  /// The secret values a request carries (so an error message that echoes one is redacted too).
  /// A choice (SELECT_MFA_TYPE's or SELECT_CHALLENGE's ANSWER) is no secret: it is kept, and
  /// the same text elsewhere (the challenge name it leads to) too.
  static func secretValues(_ request: JSONObject, operation: String) -> [String] {
    var values: [String] = []
    let choice = isChoice(request)
    func walk(_ value: JSONValue, key: String?) {
      switch value {
      case .string(let s)
      where key.map(secretKeys.contains) == true && s.count >= 4 && !(choice && key == "ANSWER"):
        values.append(s)
      case .object(let o): for (k, v) in o { walk(v, key: k) }
      case .array(let a): for v in a { walk(v, key: key) }
      default: break
      }
    }
    walk(.object(request), key: nil)
    return values.sorted { $0.count > $1.count }
  }

  /// The placeholder of a session id: `session#N`, N counting sessions in the order first seen.
  private func placeholder(_ session: String) -> String {
    if let n = placeholders[session] { return "session#\(n)" }
    if placeholders.count > 100_000 { placeholders.removeAll() }
    let n = placeholders.count + 1
    placeholders[session] = n
    return "session#\(n)"
  }

  private func redact(_ value: JSONValue, _ secrets: [String], choice: Bool, key: String? = nil) -> JSONValue {
    switch value {
    case .string(let s):
      if key == "Session" { return .string(placeholder(s)) }
      if let key, Self.secretKeys.contains(key), !(choice && key == "ANSWER") { return .string("<redacted>") }
      var text = s
      for secret in secrets where text.contains(secret) {
        text = text.replacingOccurrences(of: secret, with: "<redacted>")
      }
      return .string(text)
    case .object(let o):
      var result: JSONObject = [:]
      for (k, v) in o {
        result[k] =
          k == "DeviceSecretVerifierConfig" ? .string("<redacted>") : redact(v, secrets, choice: choice, key: k)
      }
      return .object(result)
    case .array(let a): return .array(a.map { redact($0, secrets, choice: choice, key: key) })
    default: return value
    }
  }
}
