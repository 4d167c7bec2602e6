import ModelChecking
import SignInModel

/// The flow as a graph to draw: steps as nodes grouped by phase, and the flattened transitions
/// of `TransitionSystem` collapsed into one edge per (step, destination), labelled with the
/// responses and, compactly, their guards. Renderers (`MermaidRenderer`, `DotRenderer`) only
/// lay this out.
public struct FlowDiagram: Sendable {
  /// Where an edge goes: a step, back to the same step (a retryable error), or out of the flow.
  public enum Destination: Hashable, Sendable {
    case step(Int)
    case stays
    case restart
  }

  public struct Node: Sendable {
    public let step: Int
    public let label: String
    public let phase: StepPhase
    public var highlighted: Bool
  }

  public struct Edge: Sendable {
    public let from: Int
    public let to: Destination
    /// One entry per response, e.g. `wrongCode [flow.retries < 4]`, in model order.
    public let labels: [String]
    public var highlighted: Bool

    public var label: String { labels.joined(separator: ", ") }
  }

  /// A step of a trace: this response at this step led there.
  public struct PathStep: Hashable, Sendable {
    public let step: Int
    public let response: Int
    public let to: Destination

    public init(step: Int, response: Int, to: Destination) {
      self.step = step
      self.response = response
      self.to = to
    }
  }

  public let model: SignInModel
  public private(set) var nodes: [Node]
  public private(set) var edges: [Edge]
  /// Whether any transition ends the flow (then a "new signIn" node is drawn).
  public var hasRestart: Bool { edges.contains { $0.to == .restart } }
  /// The longest guard text shown on an edge before it is cut with "…".
  public static let guardWidth = 40
  /// The most responses listed on one edge; the rest are counted ("+3 more").
  public static let responsesShown = 4

  /// - Parameters:
  ///   - configuration: values of configuration variables (by index); transitions whose guard
  ///     is false under them are left out, as is every step no longer reachable from signIn.
  ///     A guard that reads a variable without a value stays possible.
  ///   - platform: show steps by this platform's names.
  public init(model: SignInModel, configuration: [Int: Int] = [:], platform: String? = nil) {
    self.model = model
    let system = TransitionSystem(model: model)
    let phases = StepPhase.phases(of: system)
    var valuation = [Int](repeating: unassigned, count: model.variables.count)
    for (i, v) in configuration { valuation[i] = v }
    let printer = ExprPrinter(model: model, words: true)
    var possible = system.branches.filter { $0.guardExpr.evaluatePartially(valuation) != 0 }
    // Keep what signIn can reach.
    var reachable: Set<Int> = [0]
    var queue = [0]
    while let s = queue.popLast() {
      for branch in possible where branch.step == s {
        if let t = branch.target, reachable.insert(t).inserted { queue.append(t) }
      }
    }
    possible = possible.filter { reachable.contains($0.step) }

    func destination(_ branch: TransitionSystem.Branch) -> Destination {
      switch branch.outcome {
      case .step(let s): return s == branch.step ? .stays : .step(s)
      case .error: return .stays
      case .restart, .route: return .restart
      }
    }
    // Collapse parallel edges: one per (from, destination); per response, the guards of its branches.
    var order: [FlowDiagramKey] = []
    var guards: [FlowDiagramKey: [Int: [String]]] = [:]
    var responseOrder: [FlowDiagramKey: [Int]] = [:]
    for branch in possible {
      let key = FlowDiagramKey(from: branch.step, to: destination(branch))
      if guards[key] == nil { order.append(key) }
      let shown = Self.shownGuard(branch.guardExpr, valuation: valuation, printer: printer)
      if guards[key, default: [:]][branch.response] == nil { responseOrder[key, default: []].append(branch.response) }
      guards[key, default: [:]][branch.response, default: []].append(shown)
    }
    edges = order.map { key in
      var labels = responseOrder[key, default: []].map { r -> String in
        let name = model.responses[r].name
        // Guards are shown where the flow moves on; retries and restarts list responses only.
        guard case .step = key.to else { return name }
        let texts = guards[key]?[r] ?? []
        if texts.contains("") { return name }
        if texts.count == 1 { return "\(name) [\(texts[0])]" }
        return "\(name) [\(texts.count) cases]"
      }
      if labels.count > Self.responsesShown {
        labels = Array(labels.prefix(Self.responsesShown - 1)) + ["+\(labels.count - Self.responsesShown + 1) more"]
      }
      return Edge(from: key.from, to: key.to, labels: labels, highlighted: false)
    }
    nodes = model.steps.indices.filter { reachable.contains($0) }.map {
      Node(step: $0, label: model.displayName(ofStep: $0, platform: platform), phase: phases[$0], highlighted: false)
    }
  }

  /// The guard as shown: conjuncts that the configuration already makes true dropped,
  /// cut to `guardWidth` characters; "" when nothing is left.
  static func shownGuard(_ guardExpr: Expr, valuation: [Int], printer: ExprPrinter) -> String {
    var parts: [Expr]
    switch guardExpr.simplified() {
    case .and(let xs): parts = xs
    case let other: parts = [other]
    }
    parts = parts.filter { $0.evaluatePartially(valuation) != 1 }
    if parts.isEmpty { return "" }
    let text = printer.render(parts.count == 1 ? parts[0] : .and(parts))
    return text.count <= guardWidth ? text : String(text.prefix(guardWidth - 1)) + "…"
  }

  /// Marks the edges and nodes a trace went through; returns the trace steps that match no
  /// drawn edge (left out by the configuration, or not of this model).
  @discardableResult
  public mutating func highlight(_ path: [PathStep]) -> [PathStep] {
    var missing: [PathStep] = []
    for step in path {
      guard let e = edges.firstIndex(where: { $0.from == step.step && $0.to == step.to }) else {
        missing.append(step)
        continue
      }
      edges[e].highlighted = true
      for n in nodes.indices where nodes[n].step == step.step { nodes[n].highlighted = true }
      if case .step(let t) = step.to {
        for n in nodes.indices where nodes[n].step == t { nodes[n].highlighted = true }
      }
    }
    return missing
  }
}

/// One collapsed edge's identity.
struct FlowDiagramKey: Hashable {
  let from: Int
  let to: FlowDiagram.Destination
}
