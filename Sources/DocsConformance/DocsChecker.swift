import ModelChecking
import SignInModel

/// Checks documentation pages against the models: reads each page, picks the model that
/// cites it (or the one of the page's year, or the newest), runs every comparison, and
/// splits the findings into acknowledged (by a model note) and new.
public struct DocsChecker {
  /// The result of one run.
  public struct Result: Sendable {
    public let pages: [(page: String, model: String, facts: Int)]
    public let findings: [Finding]
    /// Notes that name a page but match no finding (the page may have changed).
    public let unmatchedNotes: [Acknowledgements.Entry]
    public var newFindings: [Finding] { findings.filter { $0.acknowledgedBy == nil } }
    public var acknowledged: [Finding] { findings.filter { $0.acknowledgedBy != nil } }
  }

  public let models: [SignInModel]

  public init(models: [SignInModel]) { self.models = models }

  /// The model a page is checked against.
  public func model(for page: DocPage) -> SignInModel? {
    if let citing = models.first(where: { $0.sources.contains { $0.contains(page.fileName) } }) { return citing }
    if let year = page.year, let same = models.first(where: { $0.generation == year }) { return same }
    return models.max { $0.generation < $1.generation }
  }

  public func check(pages: [DocPage]) -> Result {
    var findings: [Finding] = []
    var summary: [(page: String, model: String, facts: Int)] = []
    var read: [(page: DocPage, facts: [DocFact], model: String)] = []
    var systems: [String: TransitionSystem] = [:]
    var contexts: [CheckContext] = []
    for page in pages {
      let facts = FactExtractor.facts(of: page)
      guard let model = model(for: page) else { continue }
      let system = systems[model.file] ?? TransitionSystem(model: model)
      systems[model.file] = system
      let context = CheckContext(page: page, facts: facts, view: ModelView(model: model))
      findings +=
        NameCheck.findings(context) + HeadingCheck.findings(context)
        + FlowCheck.findings(context, system: system) + SetCheck.findings(context)
        + ExceptionCheck.findings(context) + TableCheck.findings(context) + SampleCheck.findings(context)
      contexts.append(context)
      summary.append((page.fileName, model.file, facts.count))
      read.append((page, facts, model.file))
    }
    findings += APINameCheck.findings(read) + CatchCheck.findings(contexts)
    findings.sort { ($0.page, $0.line, $0.kind.rawValue) < ($1.page, $1.line, $1.kind.rawValue) }
    let acknowledgements = Acknowledgements(models: models)
    var used = Set<String>()
    for i in findings.indices {
      let entries = acknowledgements.entries.filter { Acknowledgements.matches($0.note, findings[i]) }
      if let entry = entries.first { findings[i].acknowledgedBy = "\(entry.modelFile):\(entry.note.line)" }
      for entry in entries { used.insert("\(entry.modelFile):\(entry.note.line)") }
    }
    let checked = Set(pages.map(\.fileName))
    let unmatched = acknowledgements.entries.filter { entry in
      !used.contains("\(entry.modelFile):\(entry.note.line)")
        && checked.contains { Acknowledgements.pageMatches(entry.note.page ?? "", $0) }
    }
    return Result(pages: summary, findings: findings, unmatchedNotes: unmatched)
  }
}
