import Foundation
import SignInModel
import Yams

/// A problem in a scenario file (or the model it names), as `file:line:column: error: message`.
public struct ScenarioLoadError: Error, CustomStringConvertible {
  public let diagnostics: [ModelDiagnostic]

  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Reads scenario files:
///
/// ```yaml
/// model: models/2023-swift.yaml     # relative to the working directory, else to the file's folder
/// platform: swift                   # default for the file's scenarios (default swift)
/// source: seeds/002_…txt            # default source
/// scenarios:
///   - name: SMS code after the password
///     source: "seeds/002_e5f5ae0642442d10.txt:120"
///     platform: js                  # optional
///     configuration: {pool.mfa: required, pool.sms: true, user.phone: true}
///     calls:
///       - correctPassword: CONFIRM_SIGN_IN_WITH_SMS_CODE
///       - wrongCode: error CodeMismatchException
///       - correctCode: done
/// ```
public enum ScenarioLoader {
  static let fileKeys = ["model", "platform", "source", "configuration", "scenarios"]
  static let scenarioKeys = ["name", "source", "platform", "configuration", "calls"]

  /// Every scenario in `path`; models are loaded once per path through `models`.
  public static func load(
    file path: String, models: inout [String: SignInModel]
  ) throws(ScenarioLoadError) -> [Scenario] {
    let reader = ScenarioFileReader(file: path)
    let scenarios = reader.read(models: &models)
    if !reader.diagnostics.isEmpty { throw ScenarioLoadError(diagnostics: reader.diagnostics) }
    return scenarios
  }

  /// The `.yaml`/`.yml` files under `path` (or `path` itself), sorted.
  public static func files(at path: String) -> [String]? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
    guard isDirectory.boolValue else { return [path] }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return entries.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
      .map { (path as NSString).appendingPathComponent($0) }
  }
}

/// The reading of one scenario file, collecting diagnostics.
final class ScenarioFileReader {
  let file: String
  var diagnostics: [ModelDiagnostic] = []

  init(file: String) { self.file = file }

  func report(_ node: Node?, _ message: String) {
    diagnostics.append(
      ModelDiagnostic(
        file: file, line: node?.mark?.line ?? 0, column: node?.mark?.column ?? 0, message: message))
  }

  func read(models: inout [String: SignInModel]) -> [Scenario] {
    // The model loader's checks: only a regular file is read; UTF-8, control characters,
    // aliases and nesting are checked before Yams builds a node (an alias bomb cannot hang it).
    let root: Node?
    do {
      root = try ModelLoader.document(file: file, what: "a scenario file")
    } catch {
      diagnostics.append(contentsOf: error.diagnostics)
      return []
    }
    guard let root, let top = mapping(root, "a scenario file") else {
      report(root, "a scenario file is a mapping with model:, platform:, scenarios:")
      return []
    }
    checkKeys(top, ScenarioLoader.fileKeys, "a scenario file")
    guard let modelNode = top["model"], let modelPath = modelNode.string else {
      report(root, "missing 'model: PATH'")
      return []
    }
    guard let model = loadModel(modelPath, node: modelNode, models: &models) else { return [] }
    let platform = top["platform"]?.string ?? "swift"
    let source = top["source"]?.string
    let base = settings(top["configuration"])
    guard let list = top["scenarios"], case .sequence(let items) = list, !items.isEmpty else {
      report(top["scenarios"] ?? root, "'scenarios:' must be a non-empty list")
      return []
    }
    return items.compactMap { scenario($0, model: model, platform: platform, source: source, base: base) }
  }

  func scenario(
    _ node: Node, model: SignInModel, platform: String, source: String?, base: [(name: String, value: String)]
  ) -> Scenario? {
    guard let fields = mapping(node, "a scenario") else { return nil }
    checkKeys(fields, ScenarioLoader.scenarioKeys, "a scenario")
    guard let name = fields["name"]?.string else {
      report(node, "a scenario needs 'name:'")
      return nil
    }
    guard let source = fields["source"]?.string ?? source else {
      report(node, "scenario '\(name)' needs 'source:' (a seed file:line or a reference section)")
      return nil
    }
    let platform = fields["platform"]?.string ?? platform
    var merged = base
    for s in settings(fields["configuration"]) {
      merged.removeAll { $0.name == s.name }
      merged.append(s)
    }
    do {
      _ = try SimulationSession(model: model, settings: merged, platform: platform)
    } catch {
      report(fields["configuration"] ?? fields["platform"] ?? node, "scenario '\(name)': \(error.message)")
      return nil
    }
    let calls = self.calls(fields["calls"], model: model, scenario: name, node: node)
    guard !calls.isEmpty else { return nil }
    return Scenario(
      name: name, source: source, file: file, line: node.mark?.line ?? 0, model: model, platform: platform,
      settings: merged, calls: calls)
  }

  func calls(_ node: Node?, model: SignInModel, scenario: String, node parent: Node) -> [Scenario.ExpectedCall] {
    guard let node, case .sequence(let items) = node, !items.isEmpty else {
      report(node ?? parent, "scenario '\(scenario)' needs 'calls:', a list of RESPONSE: EXPECTED")
      return []
    }
    var result: [Scenario.ExpectedCall] = []
    let responses = model.responses.map(\.name)
    for item in items {
      guard case .mapping(let m) = item, m.count == 1, let (key, value) = m.first.map({ ($0.key, $0.value) }),
        let call = key.string, let text = value.string
      else {
        report(item, "a call is one 'RESPONSE: EXPECTED' pair (EXPECTED: a step name, done, error NAME or restart)")
        continue
      }
      let response = call.split(separator: ":").last.map(String.init) ?? call
      let isSignOut = (call == "signOut" || call == "signOut:") && model.clientCall(named: "signOut") != nil
      guard responses.contains(response) || isSignOut else {
        let hint = Suggestions.closest(to: response, among: responses).map { "; did you mean '\($0)'?" } ?? ""
        report(key, "unknown response '\(response)'\(hint)")
        continue
      }
      guard let expected = Expectation(parsing: text) else {
        report(value, "'\(text)' is not an expected outcome: a step name, 'NAME [ID]', done, error NAME or restart")
        continue
      }
      result.append(.init(call: call, expected: expected, line: key.mark?.line ?? 0))
    }
    return diagnostics.isEmpty ? result : []
  }

  func settings(_ node: Node?) -> [(name: String, value: String)] {
    guard let node else { return [] }
    guard let fields = mapping(node, "configuration") else { return [] }
    return fields.compactMap { key, value in
      guard let text = value.string else {
        report(value, "the value of '\(key)' must be a single value")
        return nil
      }
      return (key, text)
    }
  }

  func loadModel(_ path: String, node: Node, models: inout [String: SignInModel]) -> SignInModel? {
    var resolved = path
    if !FileManager.default.fileExists(atPath: path) {
      let folder = ((file as NSString).deletingLastPathComponent as NSString)
      let parent = folder.deletingLastPathComponent as NSString
      let candidates = [folder.appendingPathComponent(path), parent.appendingPathComponent(path)]
      guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        report(node, "no such model file: \(path)")
        return nil
      }
      resolved = found
    }
    if let model = models[resolved] { return model }
    do {
      let model = try ModelLoader.load(file: resolved)
      models[resolved] = model
      return model
    } catch {
      diagnostics += error.diagnostics
      return nil
    }
  }

  /// A mapping's pairs by key, in order; nil (reported) when the node is not a mapping.
  func mapping(_ node: Node, _ what: String) -> OrderedFields? {
    guard case .mapping(let m) = node else {
      report(node, "\(what) must be a mapping")
      return nil
    }
    var fields = OrderedFields()
    for (k, v) in m {
      guard let key = k.string else { continue }
      fields.items.append((key, k, v))
    }
    return fields
  }

  func checkKeys(_ fields: OrderedFields, _ allowed: [String], _ what: String) {
    for item in fields.items where !allowed.contains(item.key) {
      let hint = Suggestions.closest(to: item.key, among: allowed).map { "; did you mean '\($0)'?" } ?? ""
      report(item.keyNode, "unknown key '\(item.key)' in \(what)\(hint)")
    }
  }
}

/// The pairs of a YAML mapping with their key nodes, looked up by key.
struct OrderedFields: Sequence {
  var items: [(key: String, keyNode: Node, value: Node)] = []

  subscript(_ key: String) -> Node? { items.first { $0.key == key }?.value }

  func makeIterator() -> AnyIterator<(String, Node)> {
    var i = items.makeIterator()
    return AnyIterator { i.next().map { ($0.key, $0.value) } }
  }
}
