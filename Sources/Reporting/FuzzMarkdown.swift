/// A fuzz run as a Markdown summary for `$GITHUB_STEP_SUMMARY`.
public struct FuzzMarkdown: Sendable {
  /// One shrunk failure and where it was saved.
  public struct Failure: Sendable {
    public let message: String
    public let originalLength: Int
    public let shrunkLength: Int
    public let file: String

    public init(message: String, originalLength: Int, shrunkLength: Int, file: String) {
      self.message = message
      self.originalLength = originalLength
      self.shrunkLength = shrunkLength
      self.file = file
    }
  }

  public var model: String
  public var client: String
  public var seed: String
  public var shard: String
  public var cases: Int
  public var calls: Int
  public var seconds: Double
  public var covered: Int
  public var transitions: Int
  public var neverExercised: [String]
  public var failures: [Failure]

  public init(
    model: String, client: String, seed: String, shard: String, cases: Int, calls: Int, seconds: Double,
    covered: Int, transitions: Int, neverExercised: [String], failures: [Failure]
  ) {
    self.model = model
    self.client = client
    self.seed = seed
    self.shard = shard
    self.cases = cases
    self.calls = calls
    self.seconds = seconds
    self.covered = covered
    self.transitions = transitions
    self.neverExercised = neverExercised
    self.failures = failures
  }

  public func render() -> String {
    var lines = ["## signin-spec fuzz: \(model), shard \(shard)", ""]
    lines.append(
      failures.isEmpty
        ? "✅ no failures"
        : "❌ \(failures.count) failure\(failures.count == 1 ? "" : "s")")
    lines += ["", "| client | seed | cases | calls | seconds | transition coverage |", "|---|---|---|---|---|---|"]
    lines.append(
      "| \(client) | \(seed) | \(cases) | \(calls) | \(String(format2(seconds))) | \(covered)/\(transitions) |")
    if !failures.isEmpty {
      lines += ["", "| failure | shrunk | saved as |", "|---|---|---|"]
      for f in failures {
        lines.append(
          "| \(VerifyFindings.cell(f.message)) | \(f.originalLength) → \(f.shrunkLength) calls | `\(f.file)` |")
      }
      lines += ["", "Replay with `signin-spec replay counterexamples` (seed \(seed))."]
    }
    if !neverExercised.isEmpty {
      lines += ["", "<details><summary>\(neverExercised.count) transitions never exercised</summary>", ""]
      lines += neverExercised.map { "- `\($0)`" }
      lines += ["", "</details>"]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
