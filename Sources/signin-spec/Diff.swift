import ArgumentParser
import Evolution
import Foundation
import SignInModel

/// Compares two models: structure, behaviour per configuration, and old clients on the new model.
struct Diff: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare two models: what changed, for which configurations, and where old clients get stuck.",
    discussion: """
      OLD and NEW are model files or git revisions REV:PATH (read with git show). Exit status: 0 nothing \
      breaking (changes may be listed); 1 breaking (an old client of a named platform stuck, or a \
      configuration that lost done); 2 a malformed model; 4 nothing breaking in the classes compared, \
      but --max-classes, --max-states or --max-pending-memory stopped the comparison before the \
      others; 64 bad usage.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

  @Argument(help: "The model before the change (a file or REV:PATH).") var old: String
  @Argument(help: "The model after the change (a file or REV:PATH).") var new: String

  @Option(help: "Take this platform's view: its names, its old clients (repeatable; default: every platform of OLD).")
  var platform: [String] = []

  @Option(help: "Output format: text, json or markdown.") var format: Format = .text

  @OptionGroup var threads: ClassThreadOptions

  @Option(
    help: """
      The most configuration classes compared (1 to 100000000): past it the comparison stops, the \
      report says its counts are partial, and the exit status is 4 unless something breaking was found.
      """)
  var maxClasses: Int = ModelDiff.defaultMaxClasses

  @Option(
    help: """
      The most states compared, both models' flows over all classes (1 to 1000000000000): past it \
      the comparison stops as at --max-classes.
      """)
  var maxStates: Int = ModelDiff.defaultMaxStates

  @OptionGroup var pendingMemory: PendingMemoryOption

  func validate() throws {
    try OptionChecks.range(maxClasses, 1...100_000_000, "--max-classes")
    try OptionChecks.range(maxStates, 1...1_000_000_000_000, "--max-states")
  }

  func run() throws {
    let oldModel = try ModelSource.load(old)
    let newModel = try ModelSource.load(new)
    for p in platform where !oldModel.platforms.contains(p) {
      let suggestion = Suggestions.closest(to: p, among: oldModel.platforms)
      printError(
        "error: OLD (\(oldModel.name)) has no platform '\(p)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
      throw ExitStatus.usage
    }
    let diff = ModelDiff(
      old: oldModel, new: newModel, platforms: platform.isEmpty ? nil : platform,
      copies: threads.copies(of: [oldModel, newModel]), bufferedClasses: threads.bufferedClasses,
      maxClasses: maxClasses, maxPendingBytes: pendingMemory.bytes, maxStates: maxStates)
    switch format {
    case .text: print(DiffTextReport.render(diff))
    case .json: print(DiffJSONReport.render(diff, tool: "signin-spec \(SignInSpec.version)"))
    case .markdown: print(DiffMarkdownReport.render(diff))
    }
    if diff.isBreaking { throw ExitStatus.violation }
    if diff.limitReached { throw ExitStatus.inconclusive }
  }
}
