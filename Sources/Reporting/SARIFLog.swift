import Foundation

/// A SARIF 2.1.0 log (the format GitHub code scanning reads), for any signin-spec command that
/// reports findings on model files: give it rules and findings, each with a file and line and,
/// optionally, a code flow (the steps of a counterexample, each at a model line).
public struct SARIFLog: Sendable {
  /// How serious a finding is (SARIF `level`).
  public enum Level: String, Sendable { case error, warning, note }

  /// A kind of finding, listed once per run (SARIF `reportingDescriptor`).
  public struct Rule: Sendable {
    public let id: String
    public let description: String

    public init(id: String, description: String) {
      self.id = id
      self.description = description
    }
  }

  /// A place in a file, with what happens there.
  public struct Location: Sendable {
    public let file: String
    /// 1-based; 0 or less means the whole file (no region).
    public let line: Int
    public let message: String?

    public init(file: String, line: Int, message: String? = nil) {
      self.file = file
      self.line = line
      self.message = message
    }
  }

  /// Why a finding is acknowledged in the source (SARIF `suppression` of kind `inSource`): the
  /// reason, and where it is written (a model's `lint:` entry or note).
  public struct Suppression: Sendable {
    public let justification: String
    public let location: Location?

    public init(justification: String, location: Location? = nil) {
      self.justification = justification
      self.location = location
    }
  }

  /// One result: a rule broken at a location, with an optional code flow, related locations
  /// (say, the model line a documentation finding compares with) and suppression.
  public struct Finding: Sendable {
    public let ruleID: String
    public let level: Level
    public let message: String
    public let location: Location
    public let codeFlow: [Location]?
    public let related: [Location]
    public let suppression: Suppression?

    public init(
      ruleID: String, level: Level, message: String, location: Location, codeFlow: [Location]? = nil,
      related: [Location] = [], suppression: Suppression? = nil
    ) {
      self.ruleID = ruleID
      self.level = level
      self.message = message
      self.location = location
      self.codeFlow = codeFlow
      self.related = related
      self.suppression = suppression
    }
  }

  public let toolName: String
  public let toolVersion: String
  public let rules: [Rule]
  public let findings: [Finding]

  public init(toolName: String = "signin-spec", toolVersion: String, rules: [Rule], findings: [Finding]) {
    self.toolName = toolName
    self.toolVersion = toolVersion
    self.rules = rules
    self.findings = findings
  }

  /// The log as pretty-printed JSON, keys sorted.
  public func encoded() throws -> String {
    let data = try JSONSerialization.data(
      withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }

  var object: [String: Any] {
    let ruleIndex = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    let results: [[String: Any]] = findings.map { finding in
      var result: [String: Any] = [
        "ruleId": finding.ruleID, "level": finding.level.rawValue, "message": ["text": finding.message],
        "locations": [Self.location(finding.location)],
      ]
      if let index = ruleIndex[finding.ruleID] { result["ruleIndex"] = index }
      if !finding.related.isEmpty {
        result["relatedLocations"] = finding.related.enumerated().map { i, location in
          Self.location(location).merging(["id": i + 1]) { old, _ in old }
        }
      }
      if let suppression = finding.suppression {
        var object: [String: Any] = ["kind": "inSource", "justification": suppression.justification]
        if let location = suppression.location { object["location"] = Self.location(location) }
        result["suppressions"] = [object]
      }
      if let flow = finding.codeFlow, !flow.isEmpty {
        result["codeFlows"] = [
          [
            "threadFlows": [["locations": flow.map { ["location": Self.location($0)] }]]
          ]
        ]
      }
      return result
    }
    let driver: [String: Any] = [
      "name": toolName, "version": toolVersion, "semanticVersion": toolVersion,
      "rules": rules.map { ["id": $0.id, "shortDescription": ["text": $0.description]] },
    ]
    return [
      "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
      "version": "2.1.0",
      "runs": [["tool": ["driver": driver], "results": results]],
    ]
  }

  static func location(_ location: Location) -> [String: Any] {
    var physical: [String: Any] = ["artifactLocation": ["uri": uri(location.file)]]
    if location.line > 0 { physical["region"] = ["startLine": location.line] }
    var object: [String: Any] = ["physicalLocation": physical]
    if let message = location.message { object["message"] = ["text": message] }
    return object
  }

  /// A relative path stays relative (to the repository root, as code scanning expects);
  /// an absolute one becomes a file URI.
  static func uri(_ path: String) -> String {
    let encoded = path.split(separator: "/", omittingEmptySubsequences: false).map {
      String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
    }.joined(separator: "/")
    return path.hasPrefix("/") ? "file://" + encoded : encoded
  }
}
