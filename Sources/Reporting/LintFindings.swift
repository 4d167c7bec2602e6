import Evolution
import SignInModel

/// `lint`'s warnings as SARIF: each at its model line, level `warning`; a warning the model
/// acknowledges in its `lint:` section carries that entry as an in-source suppression; a `lint:`
/// entry that matches no warning is a `note`.
public enum LintFindings {
  /// The rule of a `lint:` entry that matches no warning.
  public static let staleRule = "lintEntryUnmatched"

  public static func sarif(_ runs: [(model: SignInModel, warnings: [LintWarning])], toolVersion: String) -> SARIFLog {
    var rules = LintRule.all.map { SARIFLog.Rule(id: $0.id, description: $0.meaning) }
    rules.append(.init(id: staleRule, description: "A lint: entry of the model that matches no warning."))
    var findings: [SARIFLog.Finding] = []
    for (model, warnings) in runs {
      for w in warnings {
        if !rules.contains(where: { $0.id == w.rule }) { rules.append(.init(id: w.rule, description: w.rule)) }
        let suppression = w.acknowledged.map { reason in
          let entry = model.lintAcknowledgements.first { $0.rule == w.rule && $0.target == w.target }
          return SARIFLog.Suppression(
            justification: reason, location: entry.map { .init(file: model.file, line: $0.line) })
        }
        findings.append(
          .init(
            ruleID: w.rule, level: .warning, message: "\(model.name): \(w.target): \(w.message)",
            location: .init(file: w.file, line: w.line), suppression: suppression))
      }
      for a in Linter(model: model).staleAcknowledgements(warnings) {
        findings.append(
          .init(
            ruleID: staleRule, level: .note,
            message: "\(model.name): lint: entry [\(a.rule)] \(a.target) matches no warning",
            location: .init(file: model.file, line: a.line)))
      }
    }
    return SARIFLog(toolVersion: toolVersion, rules: rules, findings: findings)
  }
}
