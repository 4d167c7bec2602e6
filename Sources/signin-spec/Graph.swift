import ArgumentParser
import Diagrams
import Foundation
import SignInModel

/// Draws a model's flow: Mermaid, DOT, or SVG through Graphviz.
struct Graph: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Draw a model's flow as a Mermaid, DOT or SVG diagram, steps grouped by phase.",
    discussion: """
      Steps are nodes grouped by phase (first factor, MFA, setup, terminal: derived from the \
      transitions); each edge collapses the transitions between two steps and lists their \
      responses with a short guard. --set restricts the drawing to one (partial) configuration; \
      --trace draws a saved counterexample's path in red. svg needs Graphviz's dot on PATH \
      (make graphs installs it); without it the command exits 64.

      Examples:
        signin-spec graph models/2026-all-platforms.yaml > flow.mmd
        signin-spec graph models/2026-all-platforms.yaml --set pool.authFlow=userAuth --format dot
        signin-spec graph models/2026-all-platforms.yaml --trace counterexamples/02e057b77dcb7491.json
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case mermaid, dot, svg }

  @Argument(help: "The model file.")
  var model: String

  @Option(help: "Output format: mermaid, dot or svg (svg runs Graphviz's dot).")
  var format: Format = .mermaid

  @Option(help: "Show step names as this platform calls them (swift, js, android, flutter).")
  var platform: String?

  @Option(
    name: .customLong("set"),
    help: ArgumentHelp(
      "Fix a configuration variable (repeatable); transitions impossible under the values are left out.",
      valueName: "NAME=VALUE"))
  var settings: [String] = []

  @Option(help: "Draw the path of this saved counterexample (counterexamples/*.json) in red.")
  var trace: String?

  func validate() throws {
    try OptionChecks.settings(settings)
  }

  func run() throws {
    let loaded = try ModelOptions.loadOne(model)
    if let platform, !loaded.platforms.contains(platform) {
      let suggestion = Suggestions.closest(to: platform, among: loaded.platforms)
      throw ValidationError(
        "model \(loaded.name) has no platform '\(platform)'"
          + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
    }
    let configuration = try Self.configuration(settings, model: loaded)
    var diagram = FlowDiagram(model: loaded, configuration: configuration, platform: platform)
    if let trace {
      guard FileManager.default.fileExists(atPath: trace) else { throw ValidationError("no such trace file: \(trace)") }
      if let kind = Replay.nonRegularKind(trace) {
        throw ValidationError("--trace: \(trace) is \(kind); give a counterexample file (.json)")
      }
      let path: [FlowDiagram.PathStep]
      do { path = try TracePath.read(file: trace, model: loaded) } catch { throw ValidationError(error.description) }
      for missing in diagram.highlight(path) {
        printError(
          "warning: the trace's '\(loaded.responses[missing.response].name)' at step "
            + "'\(loaded.steps[missing.step].id)' is not drawn (left out by --set)")
      }
    }
    switch format {
    case .mermaid: print(MermaidRenderer.render(diagram), terminator: "")
    case .dot: print(DotRenderer.render(diagram), terminator: "")
    case .svg: print(try Self.svg(DotRenderer.render(diagram)), terminator: "")
    }
  }

  /// The values of `--set NAME=VALUE`, by variable index; bad names and values exit 64.
  static func configuration(_ settings: [String], model: SignInModel) throws -> [Int: Int] {
    var values: [Int: Int] = [:]
    var valuation = [Int](repeating: unassigned, count: model.variables.count)
    for setting in settings {
      let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
      let name = parts[0]
      let text = parts.count > 1 ? parts[1] : ""
      guard let i = model.variableIndex(named: name), model.variables[i].scope == .configuration else {
        let names = model.configurationIndices.map { model.variables[$0].name }
        throw ValidationError(
          "--set: '\(name)' is not a configuration variable of \(model.name)"
            + (Suggestions.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""))
      }
      let domain = model.variables[i].domain
      guard let v = domain.values.first(where: { domain.render($0) == text }) else {
        throw ValidationError("--set: '\(text)' is not in the domain \(domain.spelling) of \(name)")
      }
      values[i] = v
      valuation[i] = v
    }
    for constraint in model.constraints where constraint.expr.evaluatePartially(valuation) == 0 {
      throw ValidationError(
        "--set: the values break the model's constraint \"\(constraint.text)\" "
          + "(\(model.file):\(constraint.line))")
    }
    return values
  }

  /// Runs Graphviz's `dot -Tsvg` on the DOT text; exit 64 naming the tool when it is missing.
  static func svg(_ dot: String) throws -> String {
    do { return try Graphviz.svg(dot) } catch .missing {
      printError(
        "error: --format svg needs Graphviz's 'dot', which is not on PATH; install it "
          + "(apt-get install graphviz, or make graphs) or use --format dot")
      throw ExitStatus.usage
    } catch {
      printError("error: \(error)")
      throw ExitStatus.internalError
    }
  }
}
