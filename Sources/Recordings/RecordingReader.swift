import CognitoWire
import Foundation

/// Reads a recording of Cognito sign-in requests: a HAR 1.2 file (its Cognito entries; base64 and
/// gzip bodies decoded), `signin-spec serve`'s request log, or the plain JSON-lines recording
/// (`schemas/cognito-recording.v1.schema.json`). Every refusal names the file and the place.
package enum RecordingReader {
  /// The largest file read by default, in bytes (100 MiB).
  package static let defaultMaxBytes = 100 << 20

  package static func read(_ path: String, maxBytes: Int = defaultMaxBytes) throws(RecordingError) -> Recording {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw RecordingError(path, nil, "cannot be read (\(String(cString: strerror(errno))))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw RecordingError(path, nil, "is not a regular file; give a HAR file or a JSON-lines recording")
    }
    guard Int(info.st_size) <= maxBytes else {
      throw RecordingError(path, nil, "is \(info.st_size) bytes, over the limit of \(maxBytes) (--max-bytes)")
    }
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
      throw RecordingError(path, nil, "cannot be read (\(error.localizedDescription))")
    }
    let text = String(decoding: data, as: UTF8.self)
    guard !text.allSatisfy(\.isWhitespace) else { throw RecordingError(path, nil, "is empty") }
    if let whole = try? JSONDecoder().decode(JSONValue.self, from: data), let object = whole.object {
      if object["format"]?.string == "signin-spec-counterexample" {
        throw RecordingError(
          path, nil,
          "is a signin-spec counterexample (a fuzz or verify finding), not a recording: replay it with "
            + "`signin-spec replay \(path)`")
      }
      if object["log"] != nil { return try har(path, object) }
    }
    return try jsonLines(path, text)
  }

  // MARK: - JSON lines

  static func jsonLines(_ path: String, _ text: String) throws(RecordingError) -> Recording {
    var exchanges: [RecordedExchange] = []
    var kind = Recording.Kind.jsonl
    var previousTime: Date?
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (offset, raw) in lines.enumerated() {
      let number = offset + 1
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty { continue }
      guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else {
        let hint = offset == 0 && line.hasPrefix("{") ? " (a truncated file, or not JSON lines?)" : ""
        throw RecordingError(
          path, "line \(number)", "is not a JSON object\(hint); a recording is a HAR file or JSON lines")
      }
      guard let object = value.object else { throw RecordingError(path, "line \(number)", "is not a JSON object") }
      if let format = object["format"]?.string {
        guard exchanges.isEmpty else {
          throw RecordingError(path, "line \(number)", "a format header belongs on the first line")
        }
        switch format {
        case "signin-spec-request-log": kind = .requestLog
        case "signin-spec-counterexample":
          throw RecordingError(
            path, nil, "is a signin-spec counterexample, not a recording: replay it with `signin-spec replay \(path)`")
        default:
          throw RecordingError(path, "line \(number)", "has the format \"\(format.prefix(60))\", not a recording's")
        }
        continue
      }
      let exchange = try exchangeFromLine(path, number, object, request: exchanges.count + 1)
      if let time = exchange.time {
        if let previousTime, time < previousTime {
          throw RecordingError(
            path, "line \(number)", "is earlier than the request before it (the lines are out of order)")
        }
        previousTime = time
      }
      exchanges.append(exchange)
    }
    guard !exchanges.isEmpty else { throw RecordingError(path, nil, "holds no Cognito request") }
    return Recording(path: path, kind: kind, exchanges: exchanges, skipped: 0)
  }

  static func exchangeFromLine(_ path: String, _ number: Int, _ object: JSONObject, request: Int)
    throws(RecordingError) -> RecordedExchange
  {
    let place = "line \(number)"
    guard let operation = object["operation"]?.string, !operation.isEmpty else {
      throw RecordingError(path, place, "has no \"operation\" (e.g. \"InitiateAuth\")")
    }
    guard let body = object["request"]?.object else {
      throw RecordingError(path, place, "has no \"request\" object (the request body as sent)")
    }
    var response: JSONObject?
    var unreadable = false
    switch object["response"] {
    case .object(let o)?: response = o
    case .null?, nil: response = nil
    case .string?: unreadable = true  // a body that is not JSON, as received
    default:
      throw RecordingError(path, place, "\"response\" must be an object, a string (a body that is not JSON) or null")
    }
    var status: Int?
    if let given = object["status"], given != .null {
      guard case .number(let n) = given, n == n.rounded(), (100...599).contains(n) else {
        throw RecordingError(path, place, "\"status\" must be an HTTP status (100 to 599)")
      }
      status = Int(n)
    }
    // An answer whose body could not be read, or a status without a body (a 500 with none): an
    // answer the client cannot use, not a lost request.
    if unreadable || (response == nil && status != nil && object["error"] == nil) { response = [:] }
    var failure: String?
    if response == nil {
      failure = object["error"]?.string ?? "reset"
      guard ["reset", "timeout"].contains(failure!) else {
        throw RecordingError(path, place, "\"error\" must be \"reset\" or \"timeout\" for a request with no answer")
      }
    }
    var time: Date?
    if let text = object["time"]?.string {
      guard let parsed = parseTime(text) else {
        throw RecordingError(path, place, "\"time\" is not an ISO 8601 time (2026-11-25T10:00:00Z)")
      }
      time = parsed
    }
    return RecordedExchange(
      request: request, entry: number, operation: RecordedExchange.operationName(operation), body: body,
      response: response, status: status, failure: failure, time: time)
  }

  static func parseTime(_ text: String) -> Date? {
    let plain = ISO8601DateFormatter()
    if let date = plain.date(from: text) { return date }
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return fractional.date(from: text)
  }

  // MARK: - HAR

  static func har(_ path: String, _ root: JSONObject) throws(RecordingError) -> Recording {
    guard let log = root["log"]?.object, case .array(let entries)? = log["entries"] else {
      throw RecordingError(path, nil, "is not HAR: it has no log.entries array")
    }
    var exchanges: [RecordedExchange] = []
    var skipped = 0
    var previousTime: Date?
    for (index, value) in entries.enumerated() {
      let place = "entry \(index)"
      guard let entry = value.object, let request = entry["request"]?.object else {
        throw RecordingError(path, place, "is not a HAR entry (no request)")
      }
      let headers = Self.headers(request["headers"])
      guard let target = headers["x-amz-target"], target.hasPrefix("AWSCognitoIdentityProviderService.") else {
        skipped += 1
        continue
      }
      let bodyText = request["postData"]?.object?["text"]?.string ?? ""
      let bodyData = try decoded(
        path, place, text: bodyText, encoding: request["postData"]?.object?["encoding"]?.string)
      guard let body = (try? JSONDecoder().decode(JSONValue.self, from: bodyData))?.object else {
        throw RecordingError(path, place, "its request body is not a JSON object")
      }
      let response = entry["response"]?.object ?? [:]
      var status: Int?
      if case .number(let n)? = response["status"], n >= 100 { status = Int(n) }
      var answer: JSONObject?
      var failure: String?
      if let status {
        let content = response["content"]?.object ?? [:]
        let data = try decoded(
          path, place, text: content["text"]?.string ?? "", encoding: content["encoding"]?.string)
        if data.isEmpty {
          answer = [:]
        } else if let object = (try? JSONDecoder().decode(JSONValue.self, from: data))?.object {
          answer = object
        } else if status >= 500 {
          answer = [:]
        } else {
          throw RecordingError(path, place, "its response body is not JSON (HTTP \(status))")
        }
      } else {
        failure = (entry["_error"]?.string ?? "").lowercased().contains("timeout") ? "timeout" : "reset"
      }
      var time: Date?
      if let started = entry["startedDateTime"]?.string {
        time = parseTime(started)
        if let time, let previousTime, time < previousTime {
          throw RecordingError(path, place, "starts earlier than the Cognito request before it (entries out of order)")
        }
        previousTime = time ?? previousTime
      }
      exchanges.append(
        RecordedExchange(
          request: exchanges.count + 1, entry: index, operation: RecordedExchange.operationName(target), body: body,
          response: answer, status: status, failure: failure, time: time))
    }
    guard !exchanges.isEmpty else {
      throw RecordingError(path, nil, "holds no Cognito request (no entry has an X-Amz-Target of Cognito's)")
    }
    return Recording(path: path, kind: .har, exchanges: exchanges, skipped: skipped)
  }

  /// HAR headers (`[{"name", "value"}]`) by lower-cased name.
  static func headers(_ value: JSONValue?) -> [String: String] {
    guard case .array(let list)? = value else { return [:] }
    var result: [String: String] = [:]
    for item in list {
      guard let name = item.object?["name"]?.string, let value = item.object?["value"]?.string else { continue }
      result[name.lowercased()] = value
    }
    return result
  }

  /// A HAR body's bytes: base64 decoded when `encoding` says so, then gunzipped when they are gzip.
  static func decoded(_ path: String, _ place: String, text: String, encoding: String?) throws(RecordingError) -> Data {
    var data = Data(text.utf8)
    if encoding == "base64" {
      guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
        throw RecordingError(path, place, "a body marked base64 is not base64")
      }
      data = bytes
    }
    if data.count >= 2, data[data.startIndex] == 0x1F, data[data.startIndex + 1] == 0x8B {
      guard let plain = Gunzip.decompress(data) else {
        throw RecordingError(path, place, "a gzip body could not be decompressed")
      }
      data = plain
    }
    return data
  }
}
