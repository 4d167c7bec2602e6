import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("signin-spec serve")
struct ServeCommandTests {
  typealias CLI = CommandLineTests

  /// Reads standard output up to `count` lines, or fewer when it ends.
  static func lines(_ handle: FileHandle, count: Int) -> [String] {
    var data = Data()
    while data.filter({ $0 == UInt8(ascii: "\n") }).count < count {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      data += chunk
    }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test(
    "serve prints where it listens, the pool id and client id, answers InitiateAuth, and SIGTERM or SIGINT exits 0",
    arguments: [SIGTERM, SIGINT])
  func serveAndStop(_ signalNumber: Int32) async throws {
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = ["serve", "--port", "0", "--host", "127.0.0.1"]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let lines = Self.lines(out.fileHandleForReading, count: 3)
    guard lines.count == 3, lines[0].hasPrefix("listening on http://127.0.0.1:"),
      let endpoint = URL(string: String(lines[0].dropFirst("listening on ".count)))
    else {
      process.terminate()
      process.waitUntilExit()
      Issue.record("start-up lines: \(lines)")
      return
    }
    #expect(lines[1].hasPrefix("pool id: us-east-1_"))
    #expect(lines[2].hasPrefix("client id: "))

    var request = URLRequest(url: endpoint, timeoutInterval: 600)  // a hang guard, not a timing condition
    request.httpMethod = "POST"
    request.setValue("application/x-amz-json-1.1", forHTTPHeaderField: "Content-Type")
    request.setValue("AWSCognitoIdentityProviderService.InitiateAuth", forHTTPHeaderField: "X-Amz-Target")
    request.httpBody = Data(
      #"{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"signinspecsimulatedclient","AuthParameters":{"USERNAME":"user","PASSWORD":"Passw0rd!"}}"#
        .utf8)
    let answer: Result<(Int, Data), any Error> = await withCheckedContinuation { continuation in
      URLSession.shared.dataTask(with: request) { data, response, error in
        if let error {
          continuation.resume(returning: .failure(error))
        } else {
          continuation.resume(returning: .success(((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data())))
        }
      }.resume()
    }
    kill(process.processIdentifier, signalNumber)
    process.waitUntilExit()
    let (status, body) = try answer.get()
    #expect(status == 200)
    let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
    #expect(object?["AuthenticationResult"] != nil, "\(String(decoding: body, as: UTF8.self))")
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
  }

  @Test("serve --set with a variable the model does not have exits 64 naming it")
  func unknownVariable() throws {
    let run = try CLI.run(["serve", "--port", "0", "--set", "pool.nonexistent=1"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("pool.nonexistent"))
    #expect(run.stdout.isEmpty)
  }

  @Test("serve --set with a value outside the variable's domain exits 64 naming it")
  func valueOutsideDomain() throws {
    let run = try CLI.run(["serve", "--port", "0", "--set", "pool.mfa=sometimes"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("'sometimes' is not a value of 'pool.mfa'"))
  }
}
