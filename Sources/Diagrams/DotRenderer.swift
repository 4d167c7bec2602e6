import Foundation

/// Renders a `FlowDiagram` in Graphviz's DOT language: a cluster per phase, one edge per
/// collapsed transition, highlighted path in red. `dot -Tsvg` turns it into a picture.
public enum DotRenderer {
  public static func render(_ diagram: FlowDiagram) -> String {
    var lines = [
      "// \(diagram.model.name) (\(diagram.model.file)), drawn by signin-spec graph",
      "digraph \(quote(diagram.model.name)) {",
      "  rankdir=TB;",
      "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];",
      "  edge [fontname=\"Helvetica\", fontsize=9];",
    ]
    func nodeLine(_ node: FlowDiagram.Node, indent: String) -> String {
      var attributes = ["label=\(quote(node.label))"]
      switch node.phase {
      case .entry: attributes.append("shape=oval")
      case .terminal: attributes.append("peripheries=2")
      default: break
      }
      if node.highlighted {
        attributes += [
          "color=\"#dd0000\"", "penwidth=2", "style=\"rounded,filled\"",
          "fillcolor=\"#ffdddd\"",
        ]
      }
      return "\(indent)\(MermaidRenderer.id(node.step)) [\(attributes.joined(separator: ", "))];"
    }
    for phase in StepPhase.allCases {
      let members = diagram.nodes.filter { $0.phase == phase }
      if members.isEmpty { continue }
      if phase == .entry {
        for node in members { lines.append(nodeLine(node, indent: "  ")) }
        continue
      }
      lines.append("  subgraph cluster_\(phase.rawValue) {")
      lines.append("    label=\(quote(phase.title));")
      lines.append("    style=dashed;")
      for node in members { lines.append(nodeLine(node, indent: "    ")) }
      if phase == .terminal && diagram.hasRestart { lines.append("    restart [label=\"new signIn\", shape=circle];") }
      lines.append("  }")
    }
    if diagram.hasRestart && !diagram.nodes.contains(where: { $0.phase == .terminal }) {
      lines.append("  restart [label=\"new signIn\", shape=circle];")
    }
    for edge in diagram.edges {
      let target: String
      switch edge.to {
      case .step(let s): target = MermaidRenderer.id(s)
      case .stays: target = MermaidRenderer.id(edge.from)
      case .restart: target = "restart"
      }
      var attributes = ["label=\(quote(edge.labels.joined(separator: "\n")))"]
      if edge.highlighted { attributes += ["color=\"#dd0000\"", "penwidth=3"] }
      lines.append("  \(MermaidRenderer.id(edge.from)) -> \(target) [\(attributes.joined(separator: ", "))];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A DOT string literal: backslashes and quotes escaped, line breaks as `\n`.
  public static func quote(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
    return "\"" + escaped + "\""
  }
}
