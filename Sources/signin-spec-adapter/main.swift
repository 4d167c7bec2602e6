// signin-spec-adapter: the reference client (`SignInClient` over `HTTPCognitoBackend`) as a
// client adapter, protocol v1 (docs/guide/adapters.md). It reads one request per line on stdin,
// writes one answer per line on stdout, and exits 0 when stdin closes.
//
//   signin-spec-adapter [--client BUG] [--request-timeout SECONDS]
//
// `--client BUG` runs one of the deliberately broken clients of `signin-spec fuzz --client`
// (module ClientBugs) instead of the reference client. Exit 64 for bad usage, 65 for a request
// it cannot read (the fuzzer never sends one); the reason goes to stderr.
import ClientAdapters
import ClientBugs
import Foundation
import SignInClient

#if canImport(Glibc)
  import Glibc
#endif

var hooks = ClientHooks.reference
var bug: String?
var requestTimeout = ReferenceAdapter.defaultRequestTimeout
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--client":
    guard let name = arguments.popFirst(), name == "reference" || DeliberateBug(rawValue: name) != nil else {
      FileHandle.standardError.write(
        Data(
          "signin-spec-adapter: --client takes reference or one of: \(DeliberateBug.allCases.map(\.rawValue).joined(separator: ", "))\n"
            .utf8))
      exit(64)
    }
    hooks = DeliberateBug(rawValue: name)?.hooks ?? .reference
    bug = DeliberateBug(rawValue: name)?.rawValue
  case "--request-timeout":
    guard let text = arguments.popFirst(), let seconds = Double(text), seconds > 0 else {
      FileHandle.standardError.write(Data("signin-spec-adapter: --request-timeout takes a number of seconds\n".utf8))
      exit(64)
    }
    requestTimeout = seconds
  case "--help", "-h":
    print(
      "usage: signin-spec-adapter [--client reference|BUG] [--request-timeout SECONDS]  (protocol v1 on stdin/stdout)")
    exit(0)
  default:
    FileHandle.standardError.write(Data("signin-spec-adapter: unknown argument \(argument)\n".utf8))
    exit(64)
  }
}

let adapter = ReferenceAdapter(hooks: hooks, bug: bug, requestTimeout: requestTimeout)
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
while let line = readLine(strippingNewline: true) {
  if line.isEmpty { continue }
  let request: AdapterRequest
  do {
    request = try JSONDecoder().decode(AdapterRequest.self, from: Data(line.utf8))
  } catch {
    FileHandle.standardError.write(Data("signin-spec-adapter: cannot read the request \(line): \(error)\n".utf8))
    exit(65)
  }
  let answer = await adapter.answer(request)
  do {
    var data: Data
    switch answer {
    case .hello(let hello): data = try encoder.encode(hello)
    case .observation(let observation): data = try encoder.encode(observation)
    }
    data.append(0x0A)
    FileHandle.standardOutput.write(data)
  } catch {
    FileHandle.standardError.write(Data("signin-spec-adapter: cannot write the answer: \(error)\n".utf8))
    exit(70)
  }
}
exit(0)
