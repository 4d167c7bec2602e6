import Dispatch
import SignInModel

/// Runs the loader in process on mutated models and checks, per input: it returns (no signal,
/// no hang past `limitSeconds`), and every rejection has diagnostics located at a line > 0.
public struct LoaderFuzzRun {
  /// What one run found.
  public struct Figures: Sendable {
    public var inputs = 0
    public var loaded = 0
    public var rejectionsByKind: [String: Int] = [:]
    /// Inputs whose rejection had a diagnostic without a line, or that ran past the limit.
    public var failures: [String] = []
    public var slowestSeconds = 0.0
    public var slowestInput = -1
    public var slowestKinds: [ModelTextMutator.Kind] = []
    public var totalSeconds = 0.0
  }

  let mutator: ModelTextMutator
  let limitSeconds: Double

  public init(models: [String], limitSeconds: Double) {
    self.mutator = ModelTextMutator(models: models)
    self.limitSeconds = limitSeconds
  }

  public func run(seed: UInt64, inputs: Range<Int>) -> Figures {
    var figures = Figures()
    let start = DispatchTime.now().uptimeNanoseconds
    for index in inputs {
      let (bytes, kinds) = mutator.input(seed: seed, index: index)
      let before = DispatchTime.now().uptimeNanoseconds
      let outcome: Result<SignInModel, ModelLoadError>
      do { outcome = .success(try ModelLoader.load(bytes: bytes, file: "input-\(index).yaml")) } catch {
        outcome = .failure(error)
      }
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - before) / 1e9
      figures.inputs += 1
      if seconds > figures.slowestSeconds {
        (figures.slowestSeconds, figures.slowestInput, figures.slowestKinds) = (seconds, index, kinds)
      }
      if seconds > limitSeconds {
        figures.failures.append("input \(index) (\(kinds.map(\.rawValue))): \(seconds) s, past the limit")
      }
      switch outcome {
      case .success: figures.loaded += 1
      case .failure(let error):
        figures.rejectionsByKind[Self.kind(of: error.diagnostics.first?.message ?? ""), default: 0] += 1
        if let unlocated = error.diagnostics.first(where: { $0.line <= 0 }) {
          figures.failures.append("input \(index) (\(kinds.map(\.rawValue))): no line: \(unlocated)")
        }
      }
    }
    figures.totalSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return figures
  }

  /// A coarse kind of rejection, from the first diagnostic's message.
  static func kind(of message: String) -> String {
    let kinds: [(String, String)] = [
      ("not UTF-8", "not UTF-8"), ("control character", "control character"), ("YAML syntax", "YAML syntax"),
      ("expands to more than", "alias bomb"), ("YAML nesting", "YAML depth"), ("YAML aliases", "YAML aliases"),
      ("nests deeper", "expression depth"), ("levels deep", "expression depth"),
      ("nodes; the limit", "expression size"),
      ("the integer", "integer literal"), ("can reach", "value bounds"), ("a range may have", "domain size"),
      ("the bounds of", "domain bounds"), ("empty", "empty"), ("duplicate", "duplicate"), ("unknown", "unknown name"),
      ("must be", "wrong type"), ("missing", "missing key"),
    ]
    return kinds.first { message.contains($0.0) }?.1 ?? "other"
  }
}
