/// Renders a `FlowDiagram` as a Mermaid flowchart (GitHub renders it inside a ```mermaid block):
/// a subgraph per phase, one edge per collapsed transition, highlighted path in red.
public enum MermaidRenderer {
  public static let header = "flowchart TD"

  public static func render(_ diagram: FlowDiagram) -> String {
    var lines = ["%% \(diagram.model.name) (\(diagram.model.file)), drawn by signin-spec graph", header]
    for phase in StepPhase.allCases {
      let members = diagram.nodes.filter { $0.phase == phase }
      if members.isEmpty { continue }
      if phase == .entry {
        for node in members { lines.append("  \(id(node.step))([\"\(escape(node.label))\"])") }
        continue
      }
      lines.append("  subgraph \(phase.rawValue)[\"\(escape(phase.title))\"]")
      for node in members {
        let shape = phase == .terminal ? ("[[\"", "\"]]") : ("[\"", "\"]")
        lines.append("    \(id(node.step))\(shape.0)\(escape(node.label))\(shape.1)")
      }
      if phase == .terminal && diagram.hasRestart { lines.append("    restart((\"new signIn\"))") }
      lines.append("  end")
    }
    if diagram.hasRestart && !diagram.nodes.contains(where: { $0.phase == .terminal }) {
      lines.append("  restart((\"new signIn\"))")
    }
    var highlighted: [Int] = []
    for (i, edge) in diagram.edges.enumerated() {
      let target: String
      switch edge.to {
      case .step(let s): target = id(s)
      case .stays: target = id(edge.from)
      case .restart: target = "restart"
      }
      lines.append("  \(id(edge.from)) -->|\"\(escape(edge.label))\"| \(target)")
      if edge.highlighted { highlighted.append(i) }
    }
    if !highlighted.isEmpty {
      lines.append("  linkStyle \(highlighted.map(String.init).joined(separator: ",")) stroke:#d00,stroke-width:3px")
    }
    for node in diagram.nodes where node.highlighted {
      lines.append("  style \(id(node.step)) fill:#fdd,stroke:#d00,stroke-width:2px")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The node id of a step: `s` and its index (model ids contain dots, which Mermaid reads as syntax).
  public static func id(_ step: Int) -> String { "s\(step)" }

  /// Text inside a quoted Mermaid label: quotes, angle brackets, ampersands, pipes and `#` as
  /// Mermaid entity codes.
  public static func escape(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "#": out += "#35;"
      case "\"": out += "#quot;"
      case "<": out += "#lt;"
      case ">": out += "#gt;"
      case "&": out += "#amp;"
      case "|": out += "#124;"
      case "\n": out += " "
      default: out.append(c)
      }
    }
    return out
  }
}
