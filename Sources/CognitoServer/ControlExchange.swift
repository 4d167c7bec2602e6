import CognitoWire
import Foundation
import SimulatedCognito

/// `signin-spec serve`'s own endpoints under `/_signin-spec/`, beside Cognito's protocol: what a
/// test of a third-party client needs from the pool that Cognito's API does not give.
///
/// - `GET /_signin-spec/messages?username=U`: the codes the pool sent to U, oldest first, as
///   `{"messages": [{"username", "medium", "destination", "code", "operation", "time"}]}`.
/// - `POST /_signin-spec/faults` with `{"username", "operation", "fault", "error", "count"}`:
///   U's next `count` requests of `operation` fail that way.
///
/// Errors are JSON, `{"error": message}` (and `"field"` naming a bad field): 400 for a bad
/// request, 404 for an unknown path, 405 for a wrong method.
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

  /// Answers one request to a control endpoint of `pool` (nil: the server has no pool).
  package static func answer(
    method: String, uri: String, body: [UInt8], pool: SimulatedUserPool?
  ) async -> CognitoExchange.Reply {
    let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = String(parts[0])
    let query = parts.count > 1 ? String(parts[1]) : ""
    guard let pool, path == prefix + "messages" || path == prefix + "faults" else {
      return error(404, "no such endpoint: \(path) (there are GET \(prefix)messages and POST \(prefix)faults)")
    }
    if path == prefix + "messages" {
      guard method == "GET" else { return error(405, "\(path) takes GET, not \(method)") }
      return await messages(query: query, pool: pool)
    }
    guard method == "POST" else { return error(405, "\(path) takes POST, not \(method)") }
    return await fault(body: body, pool: pool)
  }

  static func messages(query: String, pool: SimulatedUserPool) async -> CognitoExchange.Reply {
    let items = URLComponents(string: "?" + query)?.queryItems ?? []
    guard let username = items.first(where: { $0.name == "username" })?.value, !username.isEmpty else {
      return error(400, "the query must name a user: ?username=U", field: "username")
    }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let sent = await pool.messages(for: username).map { m -> JSONValue in
      .object([
        "username": .string(m.username), "medium": .string(m.medium), "destination": .string(m.destination),
        "code": .string(m.code), "operation": .string(m.operation), "time": .string(formatter.string(from: m.time)),
      ])
    }
    return json(200, .object(["messages": .array(sent)]))
  }

  static func fault(body: [UInt8], pool: SimulatedUserPool) async -> CognitoExchange.Reply {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body)), let request = value.object else {
      return error(400, "the body is not a JSON object")
    }
    guard let username = request["username"]?.string else {
      return error(400, "username: a string naming the user is required", field: "username")
    }
    guard username == SimulatedUserPool.username else {
      return error(400, "username: the pool has one user, '\(SimulatedUserPool.username)'", field: "username")
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
    await pool.injectFault(operation: operation, injected, count: count)
    return json(
      200,
      .object([
        "username": .string(username), "operation": .string(operation), "fault": .string(name),
        "count": .number(Double(count)),
      ]))
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
