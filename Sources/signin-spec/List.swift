import ArgumentParser
import ModelChecking
import Reporting
import SignInModel

/// Prints what a model declares: steps with their platform names, variables, responses, invariants.
struct List: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show a model's steps (with each platform's name), variables, responses and invariants.",
    discussion: """
      Example:
        signin-spec list models/2026-all-platforms.yaml
      """)

  @OptionGroup var modelOptions: ModelOptions

  func run() throws {
    let models = try modelOptions.loadModels()
    print(models.map(ModelListing.render).joined(separator: "\n\n"))
  }
}

/// The text `signin-spec list` prints for one model.
enum ModelListing {
  static func render(_ model: SignInModel) -> String {
    var lines: [String] = []
    lines.append("\(model.name) (\(model.file)), generation \(model.generation), content hash \(model.contentHash)")
    if !model.summary.isEmpty { lines.append("  \(model.summary)") }
    for source in model.sources { lines.append("  source: \(source)") }

    lines.append("")
    lines.append("Steps (\(model.steps.count - 1), plus the signIn entry):")
    for step in model.steps.dropFirst() {
      let kind =
        step.kind == .signedIn ? " [ends: signed in]" : step.kind == .restart ? " [ends: new signIn needed]" : ""
      lines.append("  \(step.id)\(kind)")
      if !step.summary.isEmpty { lines.append("      \(step.summary)") }
      for platform in model.platforms {
        let text: String
        switch step.names.first(where: { $0.platform == platform })?.form {
        case .name(let n)?: text = n
        case .error(let e)?: text = "thrown as \(e), not a step"
        case .absent(let reason)?: text = "absent (\(reason))"
        case nil: text = "(not given)"
        }
        lines.append("      \(platform.padding(toLength: 8, withPad: " ", startingAt: 0)) \(text)")
      }
      if let facts = factsLine(step.facts) { lines.append(facts) }
      if let offers = step.offers {
        let set = model.optionSets[offers.optionSet]
        lines.append(
          "      offers from \(set.name): "
            + offers.conditions.map { set.options[$0.option].name }.joined(separator: ", "))
      }
      if !step.responses.isEmpty {
        lines.append(
          "      responses: "
            + step.responses.map {
              model.responses[$0.response].name + ($0.inherited ? "*" : "")
            }.joined(separator: ", "))
      }
      for note in step.notes {
        lines.append("      note (\(note.source)\(note.platform.map { ", " + $0 } ?? "")): \(note.text)")
      }
    }
    lines.append("  (* = rules inherited from defaults)")

    lines.append("")
    lines.append(
      "Configuration variables (\(TextReport.formatCount(model.configurationSpaceSize)) combinations before constraints):"
    )
    for i in model.configurationIndices { lines.append(variableLine(model.variables[i])) }
    lines.append("Flow variables (reset by every signIn):")
    for i in model.flowIndices { lines.append(variableLine(model.variables[i])) }
    if !model.constraints.isEmpty {
      lines.append("Constraints:")
      for c in model.constraints { lines.append("  \(c.text)") }
    }
    lines += factLines(model)
    lines.append("Responses:")
    let width = (model.responses.map(\.name.count).max() ?? 0) + 2
    for r in model.responses {
      lines.append("  \(r.name.padding(toLength: width, withPad: " ", startingAt: 0))\(r.summary)")
    }
    lines.append("Routes: " + model.routes.map(\.name).joined(separator: ", "))
    lines.append("Invariants:")
    let iw = (Invariant.allCases.map(\.rawValue.count).max() ?? 0) + 2
    for inv in Invariant.allCases {
      let notChecked = inv.missingFacts(in: model).map { "  [NOT CHECKED: \($0)]" } ?? ""
      lines.append("  \(inv.rawValue.padding(toLength: iw, withPad: " ", startingAt: 0))\(inv.meaning)\(notChecked)")
    }
    if !model.properties.isEmpty {
      lines.append("Properties:")
      for p in model.properties { lines.append("  \(p.name) (line \(p.line)): \(p.statement)") }
    }
    if let policy = model.policy {
      lines.append("Policy (line \(policy.mfaRequired.line)): done needs an MFA factor when")
      lines.append("  " + policy.mfaRequired.text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
      lines.append("  source: \(policy.mfaRequired.source)")
      for e in policy.exemptions {
        lines.append("  except \(e.name) (line \(e.line)): \(e.text)")
        lines.append("    source: \(e.source.split(whereSeparator: \.isNewline).joined(separator: " "))")
      }
    }
    return lines.joined(separator: "\n")
  }

  static func variableLine(_ v: Variable) -> String {
    var initial = v.scope == .flow ? " = \(v.domain.render(v.initial)) at signIn" : ""
    if let d = v.defaultValue { initial = " (default \(v.domain.render(d)))" }
    return "  \(v.name)  \(v.domain.spelling)\(initial)" + (v.doc.isEmpty ? "" : "  -- \(v.doc)")
  }
}
