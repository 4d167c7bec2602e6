import Foundation
import SafeFiles
import SignInClient
import SignInModel

/// A saved fuzz failure: versioned JSON, named by the hash of its content so that the same
/// case found twice (or on two machines) is one file. The `itf` part is the trace in the ITF
/// format of Apalache/Quint (`#meta`, `vars`, `states`), readable by their trace tools.
package struct CounterexampleFile: Codable, Sendable, Equatable {
  package struct ModelReference: Codable, Sendable, Equatable {
    package let name: String
    package let file: String
    package let contentHash: String
  }

  /// The adapter a case was found through (docs/guide/adapters.md): its command line and the
  /// client its `hello` named. Such a case replays with `replay --adapter`.
  package struct AdapterReference: Codable, Sendable, Equatable {
    package let command: String
    package let client: String

    package init(command: String, client: String) {
      self.command = command
      self.client = client
    }
  }

  package var format = "signin-spec-counterexample"
  /// 4: the calls' `exception` and `error`; an unknown challenge is the response class
  /// `unknownChallenge` (before: a call's `unknownChallenge: true`, read as that class).
  /// 3: `adapter` names the adapter a case needs (absent: the reference client in process).
  /// 2: `itf` holds each state's variables as ITF values. 1: rendered strings. All are read.
  package var version = 4
  package var tool: String
  package var model: ModelReference
  package var seed: String
  /// "reference", or the deliberate bug of the client that failed, or the client an adapter's
  /// `hello` named.
  package var client: String
  /// The adapter the case was found through; nil for the reference client in process.
  package var adapter: AdapterReference? = nil
  package var property = "conformance: every call does what the model says"
  package var message: String
  package var originalLength: Int
  package var shrunkLength: Int
  package var fuzzCase: FuzzCase
  package var calls: [ObservedCall]
  package var failingCall: Int
  package var itf: ITFTrace
  /// The invariant a model-check finding (`verify --save`) breaks; nil for a fuzz case.
  package var invariant: String? = nil

  /// The variable names of the ITF trace: the model's variables, then the step and what the
  /// model expected and the client did on the call that led to the state.
  static func itfVariables(_ model: SignInModel) -> [String] {
    model.variables.map(\.name) + ["step", "expected", "observed"]
  }

  /// ITF: the model's state before the first call and after each call, every variable as a
  /// value (booleans as booleans, integers as `#bigint`, enumeration values as strings).
  static func itf(_ execution: Execution, model: SignInModel) -> ITFTrace {
    var states: [ITFTrace.State] = []
    for (i, state) in execution.states.enumerated() {
      var values: [String: ITFValue] = [:]
      for (index, variable) in model.variables.enumerated() {
        let value = state.valuation[index]
        switch variable.domain {
        case .bool: values[variable.name] = .bool(value != 0)
        case .range: values[variable.name] = .int(value)
        case .enumeration: values[variable.name] = .string(variable.domain.render(value))
        }
      }
      values["step"] = .string(state.step ?? "ended")
      let call = i > 0 && i - 1 < execution.calls.count ? execution.calls[i - 1] : nil
      values["expected"] = .string(call?.expected ?? "")
      values["observed"] = .string(call?.observed ?? "")
      values["mbt::actionTaken"] = .string(call.map { "\($0.call)(\($0.response))" } ?? "init")
      states.append(ITFTrace.State(meta: ["index": .int(i)], values: values))
    }
    return ITFTrace(
      meta: [
        "format": .string("ITF"), "format-description": .string("https://apalache-mc.org/docs/adr/015adr-trace.html"),
        "source": .string(model.file), "status": .string("violation"),
      ],
      vars: itfVariables(model), states: states)
  }

  package init(finding: FuzzFinding, model: SignInModel, client: String, tool: String) {
    self.tool = tool
    self.model = ModelReference(name: model.name, file: model.file, contentHash: model.contentHash)
    seed = String(finding.seed)
    self.client = client
    message = finding.execution.message ?? ""
    property = finding.execution.disagreement?.property ?? property
    originalLength = finding.originalLength
    shrunkLength = finding.fuzzCase.calls.count
    fuzzCase = finding.fuzzCase
    calls = finding.execution.calls
    failingCall = finding.execution.failingCall ?? 0
    itf = Self.itf(finding.execution, model: model)
  }

  package func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }

  /// The file name: the hash of the model name, the client (for a case found through an
  /// adapter, its command: the client's version is no part of the name) and the case; a
  /// model-check finding's starts with its invariant and model name
  /// (`deterministic-2026-all-platforms-<hash>.json`).
  package var fileName: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let key = (try? encoder.encode(fuzzCase)) ?? Data()
    guard let invariant else {
      let who = adapter.map { "adapter " + $0.command } ?? client
      return fnv1a64Hex(Array((model.name + "|" + who + "|").utf8) + Array(key)) + ".json"
    }
    let hash = fnv1a64Hex(Array((model.name + "|" + invariant + "|").utf8) + Array(key))
    let safe = String(
      model.name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "_" })
    return "\(invariant)-\(safe)-\(hash).json"
  }

  /// Writes the file into `folder` atomically (temporary file, then rename); returns its path.
  @discardableResult
  package func write(to folder: String) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = (folder as NSString).appendingPathComponent(fileName)
    try SafeFile.write(encoded(), to: path)
    return path
  }

  /// The `format` every counterexample file carries.
  package static let formatName = "signin-spec-counterexample"
  /// The versions this signin-spec reads.
  package static let readableVersions = 1...4

  /// Reads a counterexample file, checking `format` and `version` before the schema; every
  /// refusal names the file and the field.
  package static func read(_ path: String) throws(CounterexampleReadError) -> CounterexampleFile {
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
      throw CounterexampleReadError(path: path, field: nil, reason: "cannot be read (\(error.localizedDescription))")
    }
    if let offset = JSONNesting.firstTooDeep([UInt8](data)) {
      throw CounterexampleReadError(
        path: path, field: nil,
        reason: "nests arrays and objects deeper than \(JSONNesting.maxDepth) levels (at byte \(offset)), the limit")
    }
    let parsed: Any
    do { parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
      // Foundation says where (line, column) and what (a number out of range, a bad byte).
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey].map {
        ": \(String(describing: $0).prefix(200))"
      }
      throw CounterexampleReadError(path: path, field: nil, reason: "is not JSON" + (detail ?? ""))
    }
    guard let header = parsed as? [String: Any] else {
      throw CounterexampleReadError(path: path, field: nil, reason: "is not a JSON object")
    }
    guard let rawFormat = header["format"] else {
      throw CounterexampleReadError(path: path, field: "format", reason: "missing; not a \(formatName) file")
    }
    guard let format = rawFormat as? String else {
      throw CounterexampleReadError(path: path, field: "format", reason: "must be the string \"\(formatName)\"")
    }
    guard format == formatName else {
      throw CounterexampleReadError(
        path: path, field: "format", reason: "is \"\(format.prefix(80))\", not \"\(formatName)\"")
    }
    guard let rawVersion = header["version"] else {
      throw CounterexampleReadError(path: path, field: "version", reason: "missing")
    }
    // Any JSON number is read (1e308, -0, 2.5): only an integer in the readable range is a version.
    guard !(rawVersion is String), let number = rawVersion as? NSNumber else {
      throw CounterexampleReadError(path: path, field: "version", reason: "has the wrong type: expected a number")
    }
    guard let version = Int(exactly: number.doubleValue), readableVersions.contains(version) else {
      throw CounterexampleReadError(
        path: path, field: "version",
        reason: "\(String(describing: rawVersion).prefix(40)) is not a version this signin-spec reads "
          + "(\(readableVersions.lowerBound) to \(readableVersions.upperBound)); regenerate the case with "
          + "`signin-spec fuzz`")
    }
    for field in ["failingCall", "originalLength", "shrunkLength"] {
      guard let value = header[field], !(value is String), let number = value as? NSNumber else { continue }
      if Int(exactly: number.doubleValue) == nil || abs(number.doubleValue) >= 9.0e15 {
        throw CounterexampleReadError(
          path: path, field: field, reason: "\(String(describing: value).prefix(40)) is not a whole number in range")
      }
    }
    let file: CounterexampleFile
    do { file = try JSONDecoder().decode(CounterexampleFile.self, from: data) } catch let error as DecodingError {
      throw CounterexampleReadError.from(error, path: path)
    } catch {
      throw CounterexampleReadError(path: path, field: nil, reason: "\(error)")
    }
    try file.checkCounts(path: path)
    return file
  }

  /// Numbers the schema cannot rule out: an index into `calls`, lengths, a fuzz case's calls.
  private func checkCounts(path: String) throws(CounterexampleReadError) {
    guard (0...max(0, calls.count - 1)).contains(failingCall) else {
      throw CounterexampleReadError(
        path: path, field: "failingCall", reason: "\(failingCall) is not the index of one of its \(calls.count) calls")
    }
    for (field, value) in [("originalLength", originalLength), ("shrunkLength", shrunkLength)] where value < 0 {
      throw CounterexampleReadError(path: path, field: field, reason: "\(value) is negative")
    }
    if invariant == nil && fuzzCase.calls.isEmpty {
      throw CounterexampleReadError(path: path, field: "fuzzCase.calls", reason: "empty; a fuzz case has calls")
    }
  }

  /// A readable rendering: configuration, then each call with expected and observed.
  package func explain() -> String {
    var lines = [
      "\(model.name), client: \(client)" + (adapter.map { " through adapter `\($0.command)`" } ?? "")
        + ", seed \(seed)",
      "property: \(property)", "found: \(message)",
      "shrunk from \(originalLength) to \(shrunkLength) calls", "configuration:",
    ]
    for (k, v) in fuzzCase.configuration.sorted(by: { $0.key < $1.key }) { lines.append("  \(k) = \(v)") }
    for (i, call) in calls.enumerated() {
      let number = String(i + 1).padding(toLength: 3, withPad: " ", startingAt: 0)
      lines.append("\(number) \(call.call)(\(call.response)) at \(call.stepBefore)")
      lines.append("      model expects: \(call.expected)")
      lines.append("      client did:    \(call.observed)\(i == failingCall ? "   <-- differs" : "")")
      if call.exception != nil || call.error != nil {
        lines.append("      exception: \(call.exception ?? "none")   client's error: \(call.error ?? "none")")
      }
    }
    return lines.joined(separator: "\n")
  }
}
