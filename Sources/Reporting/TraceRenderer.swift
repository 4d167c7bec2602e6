import ModelChecking
import SignInModel

/// Renders counterexamples as numbered calls, readable in a terminal.
public struct TraceRenderer: Sendable {
  public let model: SignInModel
  /// Step names are shown as this platform calls them; nil shows the model's ids.
  public let platform: String?

  public init(model: SignInModel, platform: String? = nil) {
    self.model = model
    self.platform = platform
  }

  func stepName(_ id: String) -> String {
    guard let index = model.stepIndex(named: id), index > 0 else { return id }
    return model.displayName(ofStep: index, platform: platform)
  }

  /// The configuration: fixed variables first, then the list of those that may take any value.
  public func configurationLines(_ assignments: [Assignment]) -> [String] {
    let fixed = assignments.filter { $0.value != nil }
    let free = assignments.filter { $0.value == nil }.map(\.variable)
    var lines: [String] = []
    if fixed.isEmpty {
      lines.append("configuration: any")
    } else {
      lines.append("configuration:")
      for a in fixed { lines.append("  \(a.variable) = \(a.value!)") }
    }
    if !free.isEmpty && !fixed.isEmpty { lines.append("  (any value: \(free.joined(separator: ", ")))") }
    return lines
  }

  /// One line per call, plus indented lines for flow changes and the deciding rules.
  public func traceLines(_ counterexample: Counterexample) -> [String] {
    if let paired = counterexample.pairedSteps { return pairedLines(counterexample.steps, paired) }
    var lines: [String] = []
    let calls = counterexample.steps.map { "\($0.call)(\($0.response))" }
    let width = (calls.map(\.count).max() ?? 0) + 2
    for (i, step) in counterexample.steps.enumerated() {
      if counterexample.loopStartsAt == i { lines.append("   -- from here the calls repeat forever --") }
      let call = calls[i].padding(toLength: width, withPad: " ", startingAt: 0)
      lines.append("\(String(i + 1).leftPadded(to: 3)). \(call)-> \(outcomeText(step))")
      for (name, change) in step.changes.sorted(by: { $0.key < $1.key }) {
        lines.append("       \(name): \(change)")
      }
      if !step.ruleLines.isEmpty {
        lines.append(
          "       rule\(step.ruleLines.count > 1 ? "s" : ""): \(model.file):"
            + step.ruleLines.map(String.init).joined(separator: ", "))
      }
    }
    if let loop = counterexample.loopStartsAt {
      lines.append("   -- back to call \(loop + 1) --")
    }
    return lines
  }
}

extension TraceRenderer {
  /// Two runs call by call (an `indistinguishable` counterexample): the left run's call and
  /// outcome, the right run's beneath, and a mark at the first call whose outcomes differ.
  func pairedLines(_ left: [TraceStep], _ right: [TraceStep]) -> [String] {
    var lines: [String] = []
    let calls = (left + right).map { "\($0.call)(\($0.response))" }
    let width = (calls.map(\.count).max() ?? 0) + 2
    var marked = false
    for (i, (l, r)) in zip(left, right).enumerated() {
      let differs = l.outcome != r.outcome && !marked
      marked = marked || differs
      for (side, step) in [("left ", l), ("right", r)] {
        let call = "\(step.call)(\(step.response))".padding(toLength: width, withPad: " ", startingAt: 0)
        let number = side == "left " ? "\(String(i + 1).leftPadded(to: 3))." : "    "
        lines.append("\(number) \(side) \(call)-> \(outcomeText(step))")
        if !step.ruleLines.isEmpty {
          lines.append("             rules: \(model.file):" + step.ruleLines.map(String.init).joined(separator: ", "))
        }
      }
      if differs { lines.append("     ^ the runs are told apart here") }
    }
    return lines
  }

  /// The call's outcome: the step by the platform's name, or the error (the platform's name,
  /// with the exception behind it in brackets where they differ) or the restart; without a
  /// platform, the model's names and what platforms report instead.
  public func outcomeText(_ step: TraceStep) -> String {
    let reported = step.reported ?? model.reported(step.outcome, ruleLines: step.ruleLines)
    switch step.outcome {
    case .step(let id):
      guard let platform else {
        return stepName(id) + (reported.differences(platformOrder: model.platforms).map { " (thrown: \($0))" } ?? "")
      }
      // A rule's `platforms:` entry makes the platform throw where its name for the step is a name.
      let named = model.stepIndex(named: id).flatMap { model.steps[$0].names.first { $0.platform == platform } }
      let thrownByName: Bool
      if case .error? = named?.form { thrownByName = true } else { thrownByName = false }
      guard !thrownByName, let shown = reported.error(on: platform) else { return stepName(id) }
      return stepName(id) + " (\(platform) throws \(shown))"
    case .error(let name, let stays):
      return "error \(errorText(name, reported)), stays on \(stepName(stays))"
    case .restart(let reason):
      var text = "restart: \(reason)"
      if let exception = reported.exception, !reason.hasPrefix(exception) { text += " [\(exception)]" }
      if let platform {
        if let shown = reported.error(on: platform), shown != reported.exception { text += " (\(platform): \(shown))" }
      } else if let others = reported.differences(platformOrder: model.platforms) {
        text += " (\(others))"
      }
      return text
    case .undetermined(let place): return "NO SINGLE OUTCOME: \(place)"
    }
  }

  /// An error's name as the platform in effect reports it, with the exception behind it.
  private func errorText(_ name: String, _ reported: ReportedError) -> String {
    guard let platform else {
      return name + (reported.differences(platformOrder: model.platforms).map { " (\($0))" } ?? "")
    }
    guard let shown = reported.error(on: platform) else { return "\(name) (\(platform): no error)" }
    return shown == name ? name : "\(shown) [\(name)]"
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
