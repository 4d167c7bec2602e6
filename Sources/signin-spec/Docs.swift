import ArgumentParser
import DocsConformance
import Foundation
import Reporting
import SafeFiles
import SignInModel

/// `signin-spec docs`: checks documentation pages against the models.
struct Docs: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check documentation pages against the models (names, next steps, sets, exceptions, API names).",
    discussion: """
      Examples:
        signin-spec docs
        signin-spec docs ../shared/seeds/000_cee021a6d97d2a62.txt --model models/2026-all-platforms.yaml --format json
        signin-spec docs --sarif docs.sarif

      Exit status: 0 every finding is acknowledged by a model note; 1 a new finding; \
      2 an unreadable page or a malformed model; 64 bad usage.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown, sarif }

  @Argument(help: "Pages to check (default: ../shared/seeds/*.txt beside the project).")
  var pages: [String] = []

  @Option(name: .customLong("model"), help: "A model file or folder (repeatable; default: models/).")
  var models: [String] = []

  @Option(help: "text, json, markdown or sarif (SARIF 2.1.0: findings at page lines, the model line related).")
  var format: Format = .text

  @Option(help: "Also write a SARIF 2.1.0 log (findings at page lines, the model line related) to this file.")
  var sarif: String?

  func validate() throws {
    try OptionChecks.output(sarif, "--sarif")
  }

  func run() throws {
    var options = ModelOptions()
    options.models = models
    let loaded = try options.loadModels()
    var read: [DocPage] = []
    var failed = false
    for path in try pageFiles() {
      // A FIFO or a device would block the read; a directory is no page.
      if FileManager.default.fileExists(atPath: path), let kind = Replay.nonRegularKind(path) {
        printError("error: \(path): is \(kind), not a documentation page (a text file)")
        failed = true
        continue
      }
      do { read.append(try PageReader.read(path: path)) } catch {
        printError("\(error)")
        failed = true
      }
    }
    if failed { throw ExitStatus.badModel }
    let result = DocsChecker(models: loaded).check(pages: read)
    let paths = Dictionary(read.map { ($0.fileName, $0.path) }) { first, _ in first }
    switch format {
    case .text: print(DocsReport.text(result))
    case .json: print(try DocsReport.json(result))
    case .markdown: print(DocsReport.markdown(result))
    case .sarif: print(try DocsFindings.sarif(result, pagePaths: paths, toolVersion: SignInSpec.version).encoded())
    }
    if let sarif {
      let log = try DocsFindings.sarif(result, pagePaths: paths, toolVersion: SignInSpec.version).encoded()
      do { try SafeFile.write(Data(log.utf8), to: sarif) } catch {
        printError("error: --sarif: \(error.description)")
        throw ExitStatus.usage
      }
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
