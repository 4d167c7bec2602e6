import ArgumentParser
import DocsConformance
import Foundation
import SignInModel

/// `signin-spec docs`: checks documentation pages against the models.
struct Docs: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check documentation pages against the models (names, next steps, sets, exceptions, API names).",
    discussion: "Exit status: 0 every finding is acknowledged by a model note; 1 a new finding; "
      + "2 an unreadable page or a malformed model; 64 bad usage.")

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

  @Argument(help: "Pages to check (default: ../shared/seeds/*.txt beside the project).")
  var pages: [String] = []

  @Option(name: .customLong("model"), help: "A model file or folder (repeatable; default: models/).")
  var models: [String] = []

  @Option(help: "text, json or markdown.")
  var format: Format = .text

  func run() throws {
    var options = ModelOptions()
    options.models = models
    let loaded = try options.loadModels()
    var read: [DocPage] = []
    var failed = false
    for path in try pageFiles() {
      do { read.append(try PageReader.read(path: path)) } catch {
        printError("\(error)")
        failed = true
      }
    }
    if failed { throw ExitStatus.badModel }
    let result = DocsChecker(models: loaded).check(pages: read)
    switch format {
    case .text: print(DocsReport.text(result))
    case .json: print(DocsReport.json(result))
    case .markdown: print(DocsReport.markdown(result))
    }
    if !result.newFindings.isEmpty { throw ExitStatus.violation }
  }

  func pageFiles() throws -> [String] {
    if !pages.isEmpty { return pages }
    let folder = "../shared/seeds"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      throw ValidationError("no pages given and no \(folder) folder beside the project")
    }
    return names.filter { $0.hasSuffix(".txt") }.sorted().map { "\(folder)/\($0)" }
  }
}
