import CognitoWire
import Foundation
import SimulatedCognito

/// `signin-spec serve`'s own endpoints under `/_signin-spec/`, beside Cognito's protocol: what a
/// test of a third-party client needs from the pool that Cognito's API does not give.
///
/// - `GET /_signin-spec/messages?username=U[&poolId=P]`: the codes the pool sent to U, oldest
///   first, as `{"messages": [{"username", "medium", "destination", "code", "operation", "time"}]}`.
/// - `POST /_signin-spec/faults` with `{"username", "poolId"?, "operation", "fault", "error",
///   "count"}`: U's next `count` requests of `operation` fail that way.
/// - `POST /_signin-spec/pools` with `{"set": {...}, "lifecycle"?, "codes"?}`: a new pool;
///   answers `{"poolId", "clientId"}`. `lifecycle` `perFlow` makes every InitiateAuth start from
///   the configuration (a fuzzer's case; default `persistent`, Cognito's); `codes` `fixed` makes
///   123456 the right code for every code (default: the server's).
/// - `DELETE /_signin-spec/pools/<poolId>`: forgets the pool, its users and their sessions.
/// - `PUT /_signin-spec/pools/<poolId>/users/<username>` with `{"password", "set", "totpSecret"?,
///   "devices"?}`: creates or replaces a user.
/// - `POST /_signin-spec/pools/<poolId>/users/<username>/inject` with `{"action", …}`: what a
///   harness does to the user (a name the pool lacks: its "nobody", which answers for unknown
///   users): `unknownChallenge`, `deviceChallenge`, `expireSessions`, `changeStatus` (`status`), `fault` (`kind`,
///   `onRequest`), `error` (`type`, `onRequest`), `operationFault` (`operation`, `kind` or `error`,
///   `count`, 0 to cancel).
/// - `GET /_signin-spec/pools/<poolId>/users/<username>/state`: `{"faultFired",
///   "lastChallengeParameters", "lastSecretCode", "issuedSessions", "issuedChallenges"}`.
///
/// Errors are JSON, `{"error": message}` (and `"field"` naming a bad field): 400 for a bad
/// request, 404 for an unknown path or pool, 405 for a wrong method.
package enum ControlExchange {
  /// The path prefix of the control endpoints.
  package static let prefix = "/_signin-spec/"

  /// Whether `uri` names a control endpoint rather than Cognito's protocol.
  package static func handles(_ uri: String) -> Bool {
    uri.hasPrefix(prefix) || uri.split(separator: "?", maxSplits: 1).first == "/_signin-spec"
  }

  /// The `fault` values and the pool's fault each stands for (`error` is Cognito's error).
  package static let faults: [String: SimulatedFault] = [
    "reset": .transport, "timeout": .timeout, "status500": .serverError, "unreadable": .malformedBody,
  ]

  /// The largest `count` of a fault.
  package static let maxCount = 1_000

  static let endpoints =
    "GET \(prefix)messages, POST \(prefix)faults, POST \(prefix)pools, DELETE \(prefix)pools/<poolId>, "
    + "PUT \(prefix)pools/<poolId>/users/<username>, POST \(prefix)pools/<poolId>/users/<username>/inject, "
    + "GET \(prefix)pools/<poolId>/users/<username>/state"

  /// Answers one request to a control endpoint (nil control: the server has no pools).
  package static func answer(
    method: String, uri: String, body: [UInt8], control: ServerControl?
  ) async -> CognitoExchange.Reply {
    let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = String(parts[0])
    let query = parts.count > 1 ? String(parts[1]) : ""
    guard let control else { return error(404, "no such endpoint: \(path) (this server has no control endpoints)") }
    let segments = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    switch segments.first {
    case "messages" where segments.count == 1:
      guard method == "GET" else { return error(405, "\(path) takes GET, not \(method)") }
      return await messages(query: query, control: control)
    case "faults" where segments.count == 1:
      guard method == "POST" else { return error(405, "\(path) takes POST, not \(method)") }
      return await fault(body: body, control: control)
    case "pools" where segments.count == 1:
      guard method == "POST" else { return error(405, "\(path) takes POST, not \(method)") }
      return await createPool(body: body, control: control)
    case "pools" where segments.count == 2:
      guard method == "DELETE" else { return error(405, "\(path) takes DELETE, not \(method)") }
      let poolId = segments[1].removingPercentEncoding ?? segments[1]
      guard await control.service.hasPool(poolId) else { return error(404, "no pool \(poolId)", field: "poolId") }
      await control.service.removePool(poolId)
      return json(200, .object(["poolId": .string(poolId), "removed": .bool(true)]))
    case "pools" where segments.count == 5 && segments[2] == "users" && ["inject", "state"].contains(segments[4]):
      let poolId = segments[1].removingPercentEncoding ?? segments[1]
      let username = segments[3].removingPercentEncoding ?? segments[3]
      guard await control.service.hasPool(poolId) else { return error(404, "no pool \(poolId)", field: "poolId") }
      guard let user = await control.service.controlled(username, poolId: poolId) else {
        return error(404, "no pool \(poolId)", field: "poolId")
      }
      if segments[4] == "state" {
        guard method == "GET" else { return error(405, "\(path) takes GET, not \(method)") }
        return json(200, HarnessControl.encode(await user.state()))
      }
      guard method == "POST" else { return error(405, "\(path) takes POST, not \(method)") }
      guard let request = object(body) else { return error(400, "the body is not a JSON object") }
      switch HarnessControl.action(request) {
      case .failure(let problem): return error(400, problem.message, field: problem.field)
      case .success(let action):
        await HarnessControl.apply(action, to: user)
        return json(200, .object(["applied": .string(request["action"]?.string ?? "")]))
      }
    case "pools" where segments.count == 4 && segments[2] == "users":
      guard method == "PUT" else { return error(405, "\(path) takes PUT, not \(method)") }
      let poolId = segments[1].removingPercentEncoding ?? segments[1]
      let username = segments[3].removingPercentEncoding ?? segments[3]
      return await putUser(poolId: poolId, username: username, body: body, control: control)
    default:
      return error(404, "no such endpoint: \(path) (there are \(endpoints))")
    }
  }

  static func messages(query: String, control: ServerControl) async -> CognitoExchange.Reply {
    let items = URLComponents(string: "?" + query)?.queryItems ?? []
    guard let username = items.first(where: { $0.name == "username" })?.value, !username.isEmpty else {
      return error(400, "the query must name a user: ?username=U", field: "username")
    }
    let poolId = items.first(where: { $0.name == "poolId" })?.value
    guard await control.service.hasPool(poolId) else {
      return error(404, "no pool \(poolId ?? "")", field: "poolId")
    }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let sent = await control.service.messages(for: username, poolId: poolId).map { m -> JSONValue in
      .object([
        "username": .string(m.username), "medium": .string(m.medium), "destination": .string(m.destination),
        "code": .string(m.code), "operation": .string(m.operation), "time": .string(formatter.string(from: m.time)),
      ])
    }
    return json(200, .object(["messages": .array(sent)]))
  }

  static func object(_ body: [UInt8]) -> JSONObject? {
    (try? JSONDecoder().decode(JSONValue.self, from: Data(body)))?.object
  }

  static func fault(body: [UInt8], control: ServerControl) async -> CognitoExchange.Reply {
    guard let request = object(body) else { return error(400, "the body is not a JSON object") }
    guard let username = request["username"]?.string else {
      return error(400, "username: a string naming the user is required", field: "username")
    }
    if let given = request["poolId"], given.string == nil {
      return error(400, "poolId: a string naming a pool", field: "poolId")
    }
    let poolId = request["poolId"]?.string
    guard await control.service.hasPool(poolId) else { return error(404, "no pool \(poolId ?? "")", field: "poolId") }
    guard let user = await control.service.user(username, poolId: poolId) else {
      return error(400, "username: the pool has no user '\(username)' (PUT it first)", field: "username")
    }
    let operations = CognitoExchange.signInOperations.sorted()
    guard let operation = request["operation"]?.string, CognitoExchange.signInOperations.contains(operation) else {
      return error(400, "operation: one of \(operations.joined(separator: ", ")) is required", field: "operation")
    }
    let names = (faults.keys.sorted() + ["error"])
    guard let name = request["fault"]?.string, names.contains(name) else {
      return error(400, "fault: one of \(names.joined(separator: ", ")) is required", field: "fault")
    }
    var count = 1
    if let given = request["count"] {
      guard case .number(let n) = given, n == n.rounded(), n >= 1, n <= Double(maxCount) else {
        return error(400, "count: a whole number from 1 to \(maxCount)", field: "count")
      }
      count = Int(n)
    }
    let injected: SimulatedUserPool.OperationFault
    if let kind = faults[name] {
      injected = .fault(kind)
    } else {
      let documented = SimulatedFault.documentedErrors[operation] ?? []
      guard let type = request["error"]?.string, documented.contains(type) else {
        return error(
          400,
          "error: one of \(operation)'s documented errors is required (\(documented.sorted().joined(separator: ", ")))",
          field: "error")
      }
      injected = .error(type)
    }
    await user.injectFault(operation: operation, injected, count: count)
    return json(
      200,
      .object([
        "username": .string(username), "operation": .string(operation), "fault": .string(name),
        "count": .number(Double(count)),
      ]))
  }

  /// The `set` object of a request as (name, value) pairs: values are strings, booleans or numbers.
  static func settings(_ request: JSONObject) -> Result<[(name: String, value: String)], ConfigurationProblem> {
    guard let given = request["set"] else { return .success([]) }
    guard let object = given.object else { return .failure(ConfigurationProblem("set: an object of NAME: VALUE")) }
    var pairs: [(name: String, value: String)] = []
    for (name, value) in object.sorted(by: { $0.key < $1.key }) {
      switch value {
      case .string(let s): pairs.append((name, s))
      case .bool(let b): pairs.append((name, b ? "true" : "false"))
      case .number(let n) where n == n.rounded() && abs(n) < 1e15: pairs.append((name, String(Int(n))))
      default: return .failure(ConfigurationProblem("set: \(name) must be a string, a boolean or a whole number"))
      }
    }
    return .success(pairs)
  }

  static func createPool(body: [UInt8], control: ServerControl) async -> CognitoExchange.Reply {
    guard let request = object(body) else { return error(400, "the body is not a JSON object") }
    let configuration: [String: String]
    do {
      configuration = try control.resolve(settings(request).get(), nil)
    } catch let problem as ConfigurationProblem {
      return error(400, problem.message, field: "set")
    } catch {
      return Self.error(400, "\(error)", field: "set")
    }
    var lifecycle = SimulatedUserPool.Lifecycle.persistent
    switch request["lifecycle"] {
    case nil, .string("persistent"): break
    case .string("perFlow"): lifecycle = .perFlow
    default: return error(400, "lifecycle: persistent or perFlow", field: "lifecycle")
    }
    var codes: SimulatedUserPool.Codes? = nil
    switch request["codes"] {
    case nil, .string("server"): break
    case .string("fixed"): codes = .fixed
    default: return error(400, "codes: fixed, or server (the server's, the default)", field: "codes")
    }
    let ids = await control.service.createPool(configuration: configuration, lifecycle: lifecycle, codes: codes)
    return json(200, .object(["poolId": .string(ids.poolId), "clientId": .string(ids.clientId)]))
  }

  static func putUser(poolId: String, username: String, body: [UInt8], control: ServerControl) async
    -> CognitoExchange.Reply
  {
    guard await control.service.hasPool(poolId) else { return error(404, "no pool \(poolId)", field: "poolId") }
    guard !username.isEmpty, username.count <= 128 else {
      return error(400, "username: 1 to 128 characters", field: "username")
    }
    guard let request = object(body) else { return error(400, "the body is not a JSON object") }
    guard let password = request["password"]?.string, !password.isEmpty else {
      return error(400, "password: a string is required", field: "password")
    }
    var user = SimulatedUserPool.User(username: username, password: password)
    switch UserEntry.totpSecret(request["totpSecret"]) {
    case .failure(let problem): return error(400, problem.message, field: "totpSecret")
    case .success(let secret): user.totpSecret = secret
    }
    switch UserEntry.devices(request["devices"]) {
    case .failure(let problem): return error(400, problem.message, field: "devices")
    case .success(let devices): user.devices = devices
    }
    let configuration: [String: String]
    do {
      configuration = try control.resolve(settings(request).get(), await control.service.configuration(of: poolId))
    } catch let problem as ConfigurationProblem {
      return error(400, problem.message, field: "set")
    } catch {
      return Self.error(400, "\(error)", field: "set")
    }
    do {
      let made = try await control.service.putUser(poolId: poolId, user: user, configuration: configuration)
      var answer: JSONObject = ["poolId": .string(poolId), "username": .string(username), "sub": .string(made.sub)]
      if configuration["user.totpRegistered"] == "true" { answer["totpSecret"] = .string(made.totpSecret) }
      return json(200, .object(answer))
    } catch {
      return Self.error(404, error.message, field: error.field)
    }
  }

  static func json(_ status: Int, _ value: JSONValue) -> CognitoExchange.Reply {
    .answer(status: status, headers: [("Content-Type", "application/json")], body: CognitoExchange.encode(value))
  }

  static func error(_ status: Int, _ message: String, field: String? = nil) -> CognitoExchange.Reply {
    var body: JSONObject = ["error": .string(message)]
    if let field { body["field"] = .string(field) }
    return json(status, .object(body))
  }
}

/// The parts of a user entry shared by the users file and `PUT .../users/<name>`.
package enum UserEntry {
  /// A base32 TOTP secret (RFC 4648, at least 16 characters = 80 bits), or nil when absent.
  package static func totpSecret(_ value: JSONValue?) -> Result<String?, ConfigurationProblem> {
    guard let value else { return .success(nil) }
    guard let text = value.string, text.count >= 16, OneTimePasswordCheck.isBase32(text) else {
      return .failure(ConfigurationProblem("totpSecret: base32 (A-Z, 2-7), at least 16 characters"))
    }
    return .success(text)
  }

  /// Remembered devices: `[{"key", "groupKey", "password"}]`.
  package static func devices(_ value: JSONValue?) -> Result<[RememberedDeviceSecret], ConfigurationProblem> {
    guard let value else { return .success([]) }
    guard let items = value.array else {
      return .failure(ConfigurationProblem("devices: a list of {key, groupKey, password}"))
    }
    var devices: [RememberedDeviceSecret] = []
    for (n, item) in items.enumerated() {
      guard let object = item.object, let key = object["key"]?.string, let group = object["groupKey"]?.string,
        let password = object["password"]?.string, !key.isEmpty, !group.isEmpty, !password.isEmpty
      else {
        return .failure(ConfigurationProblem("devices[\(n)]: key, groupKey and password are required strings"))
      }
      devices.append(RememberedDeviceSecret(key: key, groupKey: group, password: password))
    }
    return .success(devices)
  }
}

/// Base32 as RFC 4648 writes it (TOTP secrets).
enum OneTimePasswordCheck {
  static func isBase32(_ text: String) -> Bool {
    let trimmed = text.uppercased().replacingOccurrences(of: "=", with: "")
    return !trimmed.isEmpty && trimmed.allSatisfy { ("A"..."Z").contains($0) || ("2"..."7").contains($0) }
  }
}
