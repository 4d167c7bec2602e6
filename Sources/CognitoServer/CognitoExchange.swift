import CognitoWire
import Foundation
import SimulatedCognito

/// One request of Cognito's AWS JSON 1.1 protocol and its answer, without the HTTP machinery:
/// the target names the operation, the body is a JSON object, and an error is Cognito's
/// `{"__type", "message"}` body with the `x-amzn-ErrorType` header.
package enum CognitoExchange {
  /// The prefix of `X-Amz-Target` for every Cognito user pool operation.
  package static let targetPrefix = "AWSCognitoIdentityProviderService."
  /// The operations of sign-in the server passes to the pool; any other is
  /// UnknownOperationException.
  package static let signInOperations: Set<String> = [
    "InitiateAuth", "RespondToAuthChallenge", "AssociateSoftwareToken", "VerifySoftwareToken", "ConfirmDevice",
    "UpdateDeviceStatus", "GetUser",
  ]
  package static let contentType = "application/x-amz-json-1.1"

  /// What the server does with a request.
  package enum Reply: Sendable, Equatable {
    /// An HTTP answer: status, extra headers and the body (empty for none).
    case answer(status: Int, headers: [(String, String)], body: [UInt8])
    /// No answer: the connection is closed (the pool's network fault).
    case closeConnection
    /// No answer: the connection is held open, then closed (the `timeout` fault), so the client
    /// meets its own timeout as it would on a slow network.
    case holdThenClose

    package static func == (a: Reply, b: Reply) -> Bool {
      switch (a, b) {
      case (.closeConnection, .closeConnection), (.holdThenClose, .holdThenClose): return true
      case (.answer(let s1, let h1, let b1), .answer(let s2, let h2, let b2)):
        return s1 == s2 && b1 == b2 && h1.map { "\($0.0): \($0.1)" } == h2.map { "\($0.0): \($0.1)" }
      default: return false
      }
    }

    /// The HTTP status, or nil when the connection is closed without an answer.
    package var status: Int? { if case .answer(let status, _, _) = self { status } else { nil } }
  }

  /// Cognito's error answer: `{"__type": type, "message": message}` and `x-amzn-ErrorType: type:`.
  package static func error(_ type: String, _ message: String, status: Int = 400) -> Reply {
    let body = JSONValue.object(["__type": .string(type), "message": .string(message)])
    return .answer(
      status: status, headers: [("Content-Type", contentType), ("x-amzn-ErrorType", "\(type):")],
      body: encode(body))
  }

  /// The answer to a body over `limit` bytes (the body itself was dropped unread).
  package static func tooLarge(limit: Int) -> Reply {
    error("RequestEntityTooLargeException", "the request body is over \(limit) bytes", status: 413)
  }

  /// Answers one request: checks the method and target, decodes the body and asks `backend`.
  package static func answer(
    method: String, target: String?, body: [UInt8], backend: any CognitoBackend, log: RequestLog? = nil
  ) async -> Reply {
    guard method == "POST" else {
      return error("UnknownOperationException", "Cognito's JSON 1.1 protocol takes POST, not \(method)")
    }
    guard let target, target.hasPrefix(targetPrefix),
      case let operation = String(target.dropFirst(targetPrefix.count)),
      signInOperations.contains(operation)
    else {
      let named = target.map { "'\($0)'" } ?? "no X-Amz-Target header"
      return error("UnknownOperationException", "not an operation of sign-in: \(named)")
    }
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body)), let request = value.object else {
      return error("SerializationException", "the request body is not a JSON object")
    }
    let reply = await answer(operation, request, backend: backend)
    if let log {
      var response: JSONObject?
      if case .answer(_, _, let bytes) = reply {
        response = (try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)))?.object
      }
      await log.record(operation: operation, request: request, status: reply.status, response: response, time: Date())
    }
    return reply
  }

  /// The answer of `backend` to one decoded request.
  static func answer(_ operation: String, _ request: JSONObject, backend: any CognitoBackend) async -> Reply {
    do {
      let response = try await backend.send(operation, request)
      return .answer(status: 200, headers: [("Content-Type", contentType)], body: encode(.object(response)))
    } catch {
      switch error {
      case .service(let type, let message):
        return Self.error(type, message, status: type == "InternalErrorException" ? 500 : 400)
      case SimulatedFault.timeout.error: return .holdThenClose
      case .network: return .closeConnection
      case SimulatedFault.malformedBody.error:
        // An answer the client cannot read: HTTP 200 whose body is not JSON.
        return .answer(
          status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>unreadable</html>".utf8))
      case .malformed: return .answer(status: 500, headers: [], body: [])
      }
    }
  }

  package static func encode(_ value: JSONValue) -> [UInt8] {
    // A JSONValue holds only strings, finite numbers, booleans, null, arrays and objects.
    guard let data = try? JSONEncoder().encode(value) else { return Array("{}".utf8) }
    return Array(data)
  }
}
