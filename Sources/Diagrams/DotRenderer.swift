import Foundation

/// Renders a `FlowDiagram` in Graphviz's DOT language: a cluster per phase, one edge per
/// collapsed transition, highlighted path in red. `dot -Tsvg` turns it into a picture.
public enum DotRenderer {
  /// - Parameter idPrefix: when given, every graph, cluster, node and edge gets an `id` starting
  ///   with it (`nodeID`, `edgeID`; Graphviz's SVG keeps them, so several diagrams share a page
  ///   without clashing ids and a page's script can find a call's edge), and the highlighted
  ///   path's nodes and edges the class `path`.
  public static func render(_ diagram: FlowDiagram, idPrefix: String? = nil) -> String {
    var lines = [
      "// \(diagram.model.name) (\(diagram.model.file)), drawn by signin-spec graph",
      "digraph \(quote(diagram.model.name)) {",
      "  rankdir=TB;",
    ]
    if let idPrefix { lines.append("  id=\(quote(idPrefix + "graph"));") }
    lines += [
      "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];",
      "  edge [fontname=\"Helvetica\", fontsize=9];",
    ]
    func nodeLine(_ node: FlowDiagram.Node, indent: String) -> String {
      var attributes = ["label=\(quote(node.label))"]
      if let idPrefix {
        attributes.append("id=\(quote(nodeID(idPrefix, node.step)))")
        if node.highlighted { attributes.append("class=\"path\"") }
      }
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
      if let idPrefix { lines.append("    id=\(quote(idPrefix + "cluster_" + phase.rawValue));") }
      for node in members { lines.append(nodeLine(node, indent: "    ")) }
      if phase == .terminal && diagram.hasRestart { lines.append("    \(restartNode(idPrefix))") }
      lines.append("  }")
    }
    if diagram.hasRestart && !diagram.nodes.contains(where: { $0.phase == .terminal }) {
      lines.append("  \(restartNode(idPrefix))")
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
      if let idPrefix {
        attributes.append("id=\(quote(edgeID(idPrefix, from: edge.from, to: edge.to)))")
        if edge.highlighted { attributes.append("class=\"path\"") }
      }
      lines.append("  \(MermaidRenderer.id(edge.from)) -> \(target) [\(attributes.joined(separator: ", "))];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The id of a step's node in a diagram rendered with `idPrefix`.
  public static func nodeID(_ idPrefix: String, _ step: Int) -> String { "\(idPrefix)n\(step)" }

  /// The id of the edge from `step` to `to` in a diagram rendered with `idPrefix`.
  public static func edgeID(_ idPrefix: String, from step: Int, to: FlowDiagram.Destination) -> String {
    switch to {
    case .step(let t): return "\(idPrefix)e\(step)_\(t)"
    case .stays: return "\(idPrefix)e\(step)_\(step)"
    case .restart: return "\(idPrefix)e\(step)_restart"
    }
  }

  static func restartNode(_ idPrefix: String?) -> String {
    "restart [label=\"new signIn\", shape=circle\(idPrefix.map { ", id=\(quote($0 + "restart"))" } ?? "")];"
  }

  /// A DOT string literal: backslashes and quotes escaped, line breaks as `\n`.
  public static func quote(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
    return "\"" + escaped + "\""
  }
}
