import CognitoWire
import SimulatedCognito

/// What a fuzzer's harness does to a user of a `serve` elsewhere, as JSON (`POST …/inject`) and
/// what it reads back (`GET …/state`): the same operations `SimulatedUserPool` offers in
/// process. Both sides encode with these functions.
package enum HarnessControl {
  /// One thing done to the user.
  package enum Action: Sendable, Equatable {
    case unknownChallenge
    case deviceChallenge
    case expireSessions
    case changeStatus(String)
    case fault(SimulatedFault, onRequest: Int)
    case error(String, onRequest: Int)
    case operationFault(String, SimulatedUserPool.OperationFault, count: Int)
  }

  /// A bad action: the message and the field.
  package struct Problem: Error, Sendable {
    package let message: String
    package let field: String
  }

  /// The statuses `changeStatus` takes.
  static let statuses: Set<String> = ["resetRequired", "unconfirmed", "confirmed", "forceChangePassword"]

  /// The JSON body of `action`.
  package static func encode(_ action: Action) -> JSONObject {
    switch action {
    case .unknownChallenge: return ["action": .string("unknownChallenge")]
    case .deviceChallenge: return ["action": .string("deviceChallenge")]
    case .expireSessions: return ["action": .string("expireSessions")]
    case .changeStatus(let status): return ["action": .string("changeStatus"), "status": .string(status)]
    case .fault(let kind, let request):
      return ["action": .string("fault"), "kind": .string(kind.rawValue), "onRequest": .number(Double(request))]
    case .error(let type, let request):
      return ["action": .string("error"), "type": .string(type), "onRequest": .number(Double(request))]
    case .operationFault(let operation, let fault, let count):
      var body: JSONObject = [
        "action": .string("operationFault"), "operation": .string(operation), "count": .number(Double(count)),
      ]
      switch fault {
      case .fault(let kind): body["kind"] = .string(kind.rawValue)
      case .error(let type): body["error"] = .string(type)
      }
      return body
    }
  }

  /// The action a request body names.
  package static func action(_ body: JSONObject) -> Result<Action, Problem> {
    func whole(_ name: String, from lowest: Int) -> Result<Int, Problem> {
      guard case .number(let n)? = body[name], n == n.rounded(), n >= Double(lowest), n <= 1_000 else {
        return .failure(Problem(message: "\(name): a whole number from \(lowest) to 1000", field: name))
      }
      return .success(Int(n))
    }
    func kind() -> Result<SimulatedFault, Problem> {
      guard let text = body["kind"]?.string, let kind = SimulatedFault(rawValue: text) else {
        let kinds = SimulatedFault.allCases.map(\.rawValue).joined(separator: ", ")
        return .failure(Problem(message: "kind: one of \(kinds)", field: "kind"))
      }
      return .success(kind)
    }
    func text(_ name: String) -> Result<String, Problem> {
      guard let value = body[name]?.string, !value.isEmpty else {
        return .failure(Problem(message: "\(name): a string is required", field: name))
      }
      return .success(value)
    }
    let actions = "unknownChallenge, deviceChallenge, expireSessions, changeStatus, fault, error, operationFault"
    switch body["action"]?.string {
    case "unknownChallenge": return .success(.unknownChallenge)
    case "deviceChallenge": return .success(.deviceChallenge)
    case "expireSessions": return .success(.expireSessions)
    case "changeStatus":
      return text("status").flatMap { status in
        statuses.contains(status)
          ? .success(.changeStatus(status))
          : .failure(Problem(message: "status: one of \(statuses.sorted().joined(separator: ", "))", field: "status"))
      }
    case "fault":
      return kind().flatMap { k in whole("onRequest", from: 0).map { .fault(k, onRequest: $0) } }
    case "error":
      return text("type").flatMap { t in whole("onRequest", from: 0).map { .error(t, onRequest: $0) } }
    case "operationFault":
      return text("operation").flatMap { operation in
        whole("count", from: 0).flatMap { count in
          if body["error"] != nil { return text("error").map { .operationFault(operation, .error($0), count: count) } }
          return kind().map { .operationFault(operation, .fault($0), count: count) }
        }
      }
    default: return .failure(Problem(message: "action: one of \(actions)", field: "action"))
    }
  }

  /// Does `action` to `user`.
  package static func apply(_ action: Action, to user: SimulatedUserPool) async {
    switch action {
    case .unknownChallenge: await user.injectUnknownChallenge()
    case .deviceChallenge: await user.injectDeviceChallenge()
    case .expireSessions: await user.expireSessions()
    case .changeStatus(let status): await user.changeStatus(to: status)
    case .fault(let kind, let request): await user.injectFault(kind, onRequest: request)
    case .error(let type, let request): await user.injectError(type, onRequest: request)
    case .operationFault(let operation, let fault, let count):
      await user.injectFault(operation: operation, fault, count: count)
    }
  }

  /// The JSON of a user's state.
  package static func encode(_ state: SimulatedUserPool.State) -> JSONValue {
    .object([
      "faultFired": .bool(state.faultFired),
      "lastChallengeParameters": .object(state.lastChallengeParameters.mapValues { .string($0) }),
      "lastSecretCode": state.lastSecretCode.map { .string($0) } ?? .null,
      "issuedSessions": .array(state.issuedSessions.map { .string($0) }),
      "issuedChallenges": .array(state.issuedChallenges.map { .string($0) }),
    ])
  }

  /// A user's state from its JSON; nil when a member is missing or of the wrong type.
  package static func state(_ value: JSONValue) -> SimulatedUserPool.State? {
    guard let object = value.object, case .bool(let fired)? = object["faultFired"],
      let parameters = object["lastChallengeParameters"]?.stringMap,
      case .array(let sessions)? = object["issuedSessions"], case .array(let challenges)? = object["issuedChallenges"]
    else { return nil }
    return SimulatedUserPool.State(
      faultFired: fired, lastChallengeParameters: parameters, lastSecretCode: object["lastSecretCode"]?.string,
      issuedSessions: sessions.compactMap(\.string), issuedChallenges: challenges.compactMap(\.string))
  }
}
