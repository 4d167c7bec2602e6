import CognitoWire
import Foundation

/// One Cognito request of a recording and what came back: the request body as sent, the
/// response body as received (nil when no answer came), and where it sits in its file.
package struct RecordedExchange: Sendable, Equatable {
  /// Its number among the file's Cognito requests, from 1, in file order.
  package var request: Int
  /// Where it is in the file: the HAR entry's index (from 0), or the JSON-lines line (from 1).
  package var entry: Int
  /// The operation, without `AWSCognitoIdentityProviderService.` (`InitiateAuth`, …).
  package var operation: String
  package var body: JSONObject
  /// The response body; nil when the request got no answer (`failure`).
  package var response: JSONObject?
  /// The HTTP status (nil when unknown or no answer).
  package var status: Int?
  /// Why no answer came: `reset` or `timeout` (nil when one came).
  package var failure: String?
  package var time: Date?

  package init(
    request: Int, entry: Int, operation: String, body: JSONObject, response: JSONObject?, status: Int?,
    failure: String? = nil, time: Date? = nil
  ) {
    self.request = request
    self.entry = entry
    self.operation = operation
    self.body = body
    self.response = response
    self.status = status
    self.failure = failure
    self.time = time
  }

  /// Cognito's exception name when the response is an error (`__type`, its namespace dropped).
  package var errorType: String? {
    guard let response else { return nil }
    if let type = response["__type"]?.string {
      return String(type.split(separator: "#").last ?? Substring(type))
    }
    if let status, status >= 400 { return "HTTP \(status)" }
    return nil
  }

  /// The user the request names (`AuthParameters.USERNAME`, `ChallengeResponses.USERNAME`).
  package var username: String? {
    body["AuthParameters"]?.object?["USERNAME"]?.string ?? body["ChallengeResponses"]?.object?["USERNAME"]?.string
      ?? body["Username"]?.string
  }

  /// The operation name with Cognito's service prefix or a namespace removed.
  package static func operationName(_ text: String) -> String {
    var name = text
    if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
    return name
  }
}

/// What a recording file holds: its Cognito exchanges in file order.
package struct Recording: Sendable {
  /// The kind of file.
  package enum Kind: String, Sendable {
    case har
    case requestLog = "request-log"
    case jsonl
  }

  package let path: String
  package let kind: Kind
  package let exchanges: [RecordedExchange]
  /// Entries that are not Cognito requests (a HAR's other traffic), skipped.
  package let skipped: Int
}

/// Why a file could not be read as a recording; the message names the file and the place.
package struct RecordingError: Error, Sendable, CustomStringConvertible {
  package let path: String
  /// "line 3", "entry 5", or nil for the whole file.
  package let place: String?
  package let reason: String

  package init(_ path: String, _ place: String? = nil, _ reason: String) {
    self.path = path
    self.place = place
    self.reason = reason
  }

  package var description: String { "\(path)\(place.map { ": \($0)" } ?? ""): error: \(reason)" }
}
