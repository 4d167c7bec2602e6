import CYaml

/// A pass over the YAML event stream (libyaml's parser, no node is built and nothing is hashed)
/// that refuses a document past `ModelLimits` before the YAML library composes it: too deep,
/// too many aliases, or too many nodes once every alias is expanded (an "alias bomb").
///
/// A syntax error ends the scan quietly: composing the document then reports it with its place.
enum YAMLPreScan {
  /// The first limit the document breaks, at its 1-based line and column; nil when within limits.
  static func check(_ yaml: String) -> (line: Int, column: Int, message: String)? {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return nil }
    defer { yaml_parser_delete(&parser) }
    let bytes = Array(yaml.utf8)
    return bytes.withUnsafeBufferPointer { buffer -> (Int, Int, String)? in
      guard let base = buffer.baseAddress else { return nil }
      yaml_parser_set_input_string(&parser, base, buffer.count)
      var scan = Scan()
      while true {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
        defer { yaml_event_delete(&event) }
        if event.type == YAML_STREAM_END_EVENT { return nil }
        if let problem = scan.consume(event) {
          return (Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1, problem)
        }
      }
    }
  }

  /// The running counts: open collections with their expanded sizes, and each anchor's size.
  private struct Scan {
    var open: [(size: Int, anchor: String?)] = []
    var anchorSizes: [String: Int] = [:]
    var aliases = 0
    var total = 0

    mutating func consume(_ event: yaml_event_t) -> String? {
      switch event.type {
      case YAML_SCALAR_EVENT:
        return add(1, anchor: name(event.data.scalar.anchor))
      case YAML_ALIAS_EVENT:
        aliases += 1
        if aliases > ModelLimits.maxYAMLAliases {
          return "more than \(ModelLimits.maxYAMLAliases) YAML aliases (*name); the limit is "
            + "\(ModelLimits.maxYAMLAliases)"
        }
        let anchor = name(event.data.alias.anchor) ?? ""
        return add(anchorSizes[anchor] ?? 1, anchor: nil)
      case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
        let anchor =
          event.type == YAML_SEQUENCE_START_EVENT
          ? name(event.data.sequence_start.anchor) : name(event.data.mapping_start.anchor)
        open.append((1, anchor))
        total += 1
        if open.count > ModelLimits.maxYAMLDepth {
          return "YAML nesting deeper than \(ModelLimits.maxYAMLDepth) levels; the limit is "
            + "\(ModelLimits.maxYAMLDepth)"
        }
        return nil
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        guard let closed = open.popLast() else { return nil }
        return add(closed.size, anchor: closed.anchor, counted: true)
      default:
        return nil
      }
    }

    /// Adds a finished node of `size` expanded nodes to its parent (and to the total).
    private mutating func add(_ size: Int, anchor: String?, counted: Bool = false) -> String? {
      if let anchor { anchorSizes[anchor] = size }
      if !open.isEmpty { open[open.count - 1].size += size }
      // A collection's own nodes were counted as they arrived; an alias or scalar adds here.
      // Every size is at most `total`, which stops at the limit, so nothing here overflows.
      if !counted { total += size }
      if total > ModelLimits.maxYAMLNodes {
        return "the document expands to more than \(ModelLimits.maxYAMLNodes) YAML nodes "
          + "(aliases expanded); the limit is \(ModelLimits.maxYAMLNodes)"
      }
      return nil
    }

    private func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
      guard let pointer else { return nil }
      return String(cString: pointer)
    }
  }
}
