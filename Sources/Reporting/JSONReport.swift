import Foundation
import ModelChecking
import SignInModel

/// The machine-readable report (`--format json`): one object per model.
public struct JSONReport: Codable, Sendable {
  public struct ModelEntry: Codable, Sendable {
    public let name: String
    public let file: String
    public let contentHash: String
    public let generation: String
    public let configurationClasses: Int
    public let configurations: Double
    public let states: Int
    public let transitions: Int
    public let seconds: Double
    public let invariants: [InvariantEntry]
  }

  public struct InvariantEntry: Codable, Sendable {
    public let name: String
    public let meaning: String
    /// "holds", "vacuous" or "violated".
    public let verdict: String
    public let reason: String?
    public let counterexample: Counterexample?
  }

  public let tool: String
  public let version: String
  public let models: [ModelEntry]

  public init(reports: [CheckReport], version: String) {
    tool = "signin-spec"
    self.version = version
    models = reports.map { report in
      ModelEntry(
        name: report.model.name, file: report.model.file, contentHash: report.model.contentHash,
        generation: report.model.generation, configurationClasses: report.statistics.configurationClasses,
        configurations: report.statistics.configurations, states: report.statistics.states,
        transitions: report.statistics.transitions, seconds: report.statistics.seconds,
        invariants: report.results.map { result in
          switch result.verdict {
          case .holds:
            return InvariantEntry(name: result.invariant.rawValue, meaning: result.invariant.meaning, verdict: "holds", reason: nil, counterexample: nil)
          case .vacuous(let reason):
            return InvariantEntry(name: result.invariant.rawValue, meaning: result.invariant.meaning, verdict: "vacuous", reason: reason, counterexample: nil)
          case .violated(let c):
            return InvariantEntry(name: result.invariant.rawValue, meaning: result.invariant.meaning, verdict: "violated", reason: c.message, counterexample: c)
          }
        })
    }
  }

  public func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
