import CognitoWire
import Foundation
import SignInClient
import SignInModel

/// A saved fuzz failure: versioned JSON, named by the hash of its content so that the same
/// case found twice (or on two machines) is one file. The `itf` part is the trace in the ITF
/// format of Apalache/Quint (`#meta`, `vars`, `states`), readable by their trace tools.
public struct CounterexampleFile: Codable, Sendable, Equatable {
  public struct ModelReference: Codable, Sendable, Equatable {
    public let name: String
    public let file: String
    public let contentHash: String
  }

  public var format = "signin-spec-counterexample"
  public var version = 1
  public var tool: String
  public var model: ModelReference
  public var seed: String
  /// "reference", or the deliberate bug of the client that failed.
  public var client: String
  public var property = "conformance: every call does what the model says"
  public var message: String
  public var originalLength: Int
  public var shrunkLength: Int
  public var fuzzCase: FuzzCase
  public var calls: [ObservedCall]
  public var failingCall: Int
  public var itf: JSONValue

  /// ITF: one state per call, with the step and what the client observed.
  static func itf(_ calls: [ObservedCall], source: String) -> JSONValue {
    var states: [JSONValue] = [.object([
      "#meta": .object(["index": .number(0)]), "step": .string("signIn"), "action": .string("init"),
      "expected": .string(""), "observed": .string(""),
    ])]
    for (i, call) in calls.enumerated() {
      states.append(.object([
        "#meta": .object(["index": .number(Double(i + 1))]),
        "mbt::actionTaken": .string("\(call.call)(\(call.response))"),
        "step": .string(call.stepBefore), "action": .string("\(call.call)(\(call.response))"),
        "expected": .string(call.expected), "observed": .string(call.observed),
      ]))
    }
    return .object([
      "#meta": .object([
        "format": .string("ITF"), "format-description": .string("https://apalache-mc.org/docs/adr/015adr-trace.html"),
        "source": .string(source), "status": .string("violation"),
      ]),
      "vars": .array([.string("step"), .string("action"), .string("expected"), .string("observed")]),
      "states": .array(states),
    ])
  }

  public init(finding: FuzzFinding, model: SignInModel, client: String, tool: String) {
    self.tool = tool
    self.model = ModelReference(name: model.name, file: model.file, contentHash: model.contentHash)
    seed = String(finding.seed)
    self.client = client
    message = finding.execution.message ?? ""
    originalLength = finding.originalLength
    shrunkLength = finding.fuzzCase.calls.count
    fuzzCase = finding.fuzzCase
    calls = finding.execution.calls
    failingCall = finding.execution.failingCall ?? 0
    itf = Self.itf(finding.execution.calls, source: model.file)
  }

  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }

  /// The file name: the hash of the model name, the client and the case.
  public var fileName: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let key = (try? encoder.encode(fuzzCase)) ?? Data()
    return fnv1a64Hex(Array((model.name + "|" + client + "|").utf8) + Array(key)) + ".json"
  }

  /// Writes the file into `folder` atomically (temporary file, then rename); returns its path.
  @discardableResult
  public func write(to folder: String) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = (folder as NSString).appendingPathComponent(fileName)
    let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
    try encoded().write(to: URL(fileURLWithPath: temporary))
    if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    try FileManager.default.moveItem(atPath: temporary, toPath: path)
    return path
  }

  public static func read(_ path: String) throws -> CounterexampleFile {
    try JSONDecoder().decode(CounterexampleFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// A readable rendering: configuration, then each call with expected and observed.
  public func explain() -> String {
    var lines = ["\(model.name), client: \(client), seed \(seed)", "property: \(property)", "found: \(message)",
                 "shrunk from \(originalLength) to \(shrunkLength) calls", "configuration:"]
    for (k, v) in fuzzCase.configuration.sorted(by: { $0.key < $1.key }) { lines.append("  \(k) = \(v)") }
    for (i, call) in calls.enumerated() {
      lines.append("\(String(i + 1).padding(toLength: 3, withPad: " ", startingAt: 0)) \(call.call)(\(call.response)) at \(call.stepBefore)")
      lines.append("      model expects: \(call.expected)")
      lines.append("      client did:    \(call.observed)\(i == failingCall ? "   <-- differs" : "")")
    }
    return lines.joined(separator: "\n")
  }
}
