import SignInModel

/// Model `notes:` entries that name a page, its lines and a kind: a finding of the same kind
/// within `slack` lines of the note's lines is acknowledged by it.
public struct Acknowledgements: Sendable {
  public struct Entry: Sendable {
    public let note: SourceNote
    public let modelFile: String
  }

  public static let slack = 3
  public let entries: [Entry]

  public init(models: [SignInModel]) {
    var entries: [Entry] = []
    for model in models {
      for note in model.notes + model.steps.flatMap(\.notes) where note.page != nil {
        entries.append(Entry(note: note, modelFile: model.file))
      }
    }
    self.entries = entries
  }

  /// The first entry that acknowledges `finding`.
  public func entry(for finding: Finding) -> Entry? {
    entries.first { Self.matches($0.note, finding) }
  }

  public static func matches(_ note: SourceNote, _ finding: Finding) -> Bool {
    guard let page = note.page, note.kind == finding.kind.rawValue, pageMatches(page, finding.page) else {
      return false
    }
    guard let lines = note.pageLines else { return false }
    return finding.line >= lines.lowerBound - slack && finding.line <= lines.upperBound + slack
  }

  /// `000`, `000_cee021a6d97d2a62.txt` or `seeds/000_….txt` all name the page `000_cee021a6d97d2a62.txt`.
  static func pageMatches(_ written: String, _ fileName: String) -> Bool {
    let name = written.split(separator: "/").last.map(String.init) ?? written
    return fileName == name || fileName.hasPrefix(name + "_") || fileName.hasPrefix(name + ".")
  }
}
