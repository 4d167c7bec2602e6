import Foundation
import Recordings
import Testing

/// Reading recordings: the three formats, and a clear error naming the file and the place for
/// anything that is not one.
@Suite("Recordings: HAR, serve's request log, JSON lines")
struct RecordingReaderTests {
  /// Writes `text` to a new file and returns its path.
  static func file(_ text: String, _ name: String = "recording.jsonl") throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static let signIn =
    #"{"operation":"AWSCognitoIdentityProviderService.InitiateAuth","request":{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"c","AuthParameters":{"USERNAME":"user","PASSWORD":"Passw0rd!"}},"response":{"__type":"com.amazonaws.cognito#NotAuthorizedException","message":"Incorrect username or password."},"status":400,"time":"2026-11-25T10:00:00Z"}"#

  @Test("JSON lines: the service prefix and an error's namespace are dropped; no answer is a reset")
  func jsonLines() throws {
    let lost =
      #"{"operation":"InitiateAuth","request":{"AuthFlow":"USER_PASSWORD_AUTH","AuthParameters":{"USERNAME":"user"}},"response":null,"error":"timeout","time":"2026-11-25T10:00:01.5Z"}"#
    let recording = try RecordingReader.read(try Self.file(Self.signIn + "\n\n" + lost + "\n"))
    #expect(recording.kind == .jsonl)
    #expect(recording.exchanges.map(\.operation) == ["InitiateAuth", "InitiateAuth"])
    #expect(recording.exchanges[0].errorType == "NotAuthorizedException")
    #expect(recording.exchanges[0].username == "user")
    #expect(recording.exchanges[1].failure == "timeout" && recording.exchanges[1].response == nil)
    #expect(recording.exchanges.map(\.entry) == [1, 3], "entries are line numbers")
    let unreadable = #"{"operation":"InitiateAuth","request":{},"response":"<html>Bad Gateway</html>","status":502}"#
    let bodiless = #"{"operation":"InitiateAuth","request":{},"response":null,"status":500}"#
    let odd = try RecordingReader.read(try Self.file(unreadable + "\n" + bodiless))
    #expect(odd.exchanges.map(\.failure) == [nil, nil], "an answer came, one the client cannot use")
    #expect(odd.exchanges.map(\.errorType) == ["HTTP 502", "HTTP 500"])
  }

  @Test("a HAR file: only Cognito's entries, base64 and gzip bodies decoded, entry indices kept")
  func har() throws {
    let body = #"{"ChallengeName":"SMS_MFA","Session":"s","ChallengeParameters":{}}"#
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-c"]
    let input = Pipe()
    let output = Pipe()
    gzip.standardInput = input
    gzip.standardOutput = output
    try gzip.run()
    try input.fileHandleForWriting.write(contentsOf: Data(body.utf8))
    try input.fileHandleForWriting.close()
    let compressed = output.fileHandleForReading.readDataToEndOfFile()
    gzip.waitUntilExit()
    let request =
      #"{\"AuthFlow\":\"USER_PASSWORD_AUTH\",\"AuthParameters\":{\"USERNAME\":\"user\",\"PASSWORD\":\"p\"}}"#
    let har = """
      {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
        {"startedDateTime": "2026-11-25T10:00:00Z", "request": {"method": "GET", "url": "https://example.com/", "headers": []},
         "response": {"status": 200, "content": {"text": "<html>"}}},
        {"startedDateTime": "2026-11-25T10:00:01Z", "request": {"method": "POST", "url": "https://cognito-idp.us-east-1.amazonaws.com/",
          "headers": [{"name": "X-Amz-Target", "value": "AWSCognitoIdentityProviderService.InitiateAuth"}],
          "postData": {"mimeType": "application/x-amz-json-1.1", "text": "\(request)"}},
         "response": {"status": 200, "content": {"mimeType": "application/x-amz-json-1.1", "encoding": "base64",
          "text": "\(compressed.base64EncodedString())"}}}
      ]}}
      """
    let recording = try RecordingReader.read(try Self.file(har, "session.har"))
    #expect(recording.kind == .har && recording.skipped == 1)
    #expect(recording.exchanges.count == 1 && recording.exchanges[0].entry == 1)
    #expect(recording.exchanges[0].response?["ChallengeName"]?.string == "SMS_MFA")
  }

  @Test("bad input names the file and the place: not JSON, no operation, out of order, a counterexample, too large")
  func badInput() throws {
    func refusal(_ text: String, maxBytes: Int = RecordingReader.defaultMaxBytes) throws -> String {
      let path = try Self.file(text)
      do {
        _ = try RecordingReader.read(path, maxBytes: maxBytes)
        return "accepted"
      } catch {
        return error.description.replacingOccurrences(of: path, with: "FILE")
      }
    }
    #expect(
      try refusal(Self.signIn + "\n{\"operation\": ")
        == "FILE: line 2: error: is not a JSON object; a recording is a HAR file or JSON lines")
    #expect(try refusal(#"{"request":{}}"#).contains("line 1: error: has no \"operation\""))
    let later = Self.signIn.replacingOccurrences(of: "10:00:00", with: "11:00:00")
    #expect(try refusal(later + "\n" + Self.signIn).contains("line 2: error: is earlier than the request before it"))
    #expect(
      try refusal(#"{"format": "signin-spec-counterexample", "version": 3}"#).contains(
        "is a signin-spec counterexample (a fuzz or verify finding), not a recording: replay it with `signin-spec replay"
      ))
    #expect(try refusal(Self.signIn, maxBytes: 10).contains("over the limit of 10 (--max-bytes)"))
    #expect(try refusal("  \n") == "FILE: error: is empty")
    #expect(try refusal(#"{"log": {"entries": []}}"#).contains("holds no Cognito request"))
    #expect(
      try refusal(#"{"operation":"InitiateAuth","request":{},"response":{},"status":999}"#).contains(
        "\"status\" must be an HTTP status"))
  }
}
