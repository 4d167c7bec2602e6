import Foundation
import ModelChecking
import SignInModel
import SymbolicChecking

/// The machine-readable report (`--format json`): format `signin-spec-verify-report`
/// version 2, one object per model (version 2 added each call's `exception`, `error` and
/// `platformErrors`).
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
    /// Where only `indistinguishable` properties were checked: how many, whose self-compositions
    /// the figures above count (classes and pairs of configurations); absent otherwise.
    public let selfCompositions: Int?
    public let invariants: [InvariantEntry]
  }

  public struct InvariantEntry: Codable, Sendable {
    public let name: String
    public let meaning: String
    /// "holds", "vacuous", "violated" or "not-checked".
    public let verdict: String
    public let reason: String?
    /// For "not-checked": the reason the model's `lint:` gives for leaving it unchecked, if any.
    public let acknowledged: String?
    public let counterexample: Counterexample?
    /// Z3's verdict ("proven", "violated", "vacuous", "not-checked", "unknown"), when Z3 ran.
    public let z3: String?
    public let z3Seconds: Double?
  }

  /// Always "signin-spec-verify-report"; the document format, documented in docs/guide/ci.md.
  public let format: String
  /// The format's version (2), not the tool's.
  public let version: Int
  /// The program and its version, e.g. "signin-spec 0.1.0".
  public let tool: String
  public let models: [ModelEntry]

  public init(reports: [CheckReport], proofs: [ProofReport] = [], version: String) {
    format = "signin-spec-verify-report"
    self.version = 2
    tool = "signin-spec \(version)"
    models = reports.map { report in
      let proof = proofs.first { $0.model === report.model }
      func z3(_ invariant: Invariant) -> (String?, Double?) {
        guard let p = proof?.results.first(where: { $0.invariant == invariant }) else { return (nil, nil) }
        switch p.verdict {
        case .proven: return ("proven", p.seconds)
        case .violated: return ("violated", p.seconds)
        case .vacuous: return ("vacuous", p.seconds)
        case .notChecked: return ("not-checked", p.seconds)
        case .unknown, .failed: return ("unknown", p.seconds)
        }
      }
      return ModelEntry(
        name: report.model.name, file: report.model.file, contentHash: report.model.contentHash,
        generation: report.model.generation, configurationClasses: report.statistics.configurationClasses,
        configurations: report.statistics.configurations, states: report.statistics.states,
        transitions: report.statistics.transitions, seconds: report.statistics.seconds,
        selfCompositions: report.statistics.selfCompositions == 0 ? nil : report.statistics.selfCompositions,
        invariants: report.results.map { result -> InvariantEntry in
          let (z3Verdict, z3Seconds) = z3(result.invariant)
          let (verdict, reason, counterexample): (String, String?, Counterexample?)
          var acknowledged: String? = nil
          switch result.verdict {
          case .notChecked(let why, let ack):
            (verdict, reason, counterexample) = ("not-checked", why, nil)
            acknowledged = ack
          case .holds: (verdict, reason, counterexample) = ("holds", nil, nil)
          case .vacuous(let why): (verdict, reason, counterexample) = ("vacuous", why, nil)
          case .violated(let c):
            (verdict, reason, counterexample) = ("violated", c.message, c.reported(in: report.model))
          }
          return InvariantEntry(
            name: result.invariant.rawValue, meaning: result.invariant.meaning(in: report.model), verdict: verdict,
            reason: reason, acknowledged: acknowledged,
            counterexample: counterexample, z3: z3Verdict, z3Seconds: z3Seconds)
        })
    }
  }

  public func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
