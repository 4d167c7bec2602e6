import DocsConformance
import Foundation
import SignInModel
import Testing

/// The seeds beside the project, checked against the shipped models: every note that names a
/// page is found again, and every finding is acknowledged.
@Suite("docs: the seeds and the shipped models")
struct SeedRecallTests {
  static let models = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]
    .map { try! ModelLoader.load(file: $0) }
  static let seeds = ((try? FileManager.default.contentsOfDirectory(atPath: "../shared/seeds")) ?? [])
    .filter { $0.hasSuffix(".txt") }.sorted().map { "../shared/seeds/\($0)" }

  @Test("the seed pages are there: a missing ../shared/seeds fails, it does not pass with no pages")
  func seedsPresent() {
    #expect(Self.seeds.count >= 5, "found \(Self.seeds.count) seed pages in ../shared/seeds")
  }

  @Test("every structured page note is matched by a finding (recall 100 %), and no finding is new")
  func recall() throws {
    try #require(!Self.seeds.isEmpty, "no seed pages in ../shared/seeds")
    let pages = try Self.seeds.map(PageReader.read)
    let result = DocsChecker(models: Self.models).check(pages: pages)
    let notes = Acknowledgements(models: Self.models).entries
    #expect(notes.count >= 11)
    #expect(result.unmatchedNotes.map { "\($0.modelFile):\($0.note.line)" } == [])
    #expect(result.newFindings.map { "\($0.page):\($0.line) \($0.kind.rawValue)" } == [])
  }

  @Test("an unreadable page is an error naming the path")
  func unreadable() {
    #expect(throws: DocsError.self) { try PageReader.read(path: "no/such/page.txt") }
  }

  @Test("a page note names its page, lines and kind, and only the same kind acknowledges")
  func acknowledgementNeedsKind() {
    let note = SourceNote(source: "s", platform: nil, text: "t", page: "000", pageLines: 10...12, kind: "unknown-name")
    let near = Finding(
      kind: .unknownName, page: "000_abc.txt", line: 14, platform: nil, pageText: "", modelFile: "m",
      modelLine: 1, modelText: "", message: "")
    let far = Finding(
      kind: .unknownName, page: "000_abc.txt", line: 16, platform: nil, pageText: "", modelFile: "m",
      modelLine: 1, modelText: "", message: "")
    let otherKind = Finding(
      kind: .setDiffers, page: "000_abc.txt", line: 11, platform: nil, pageText: "",
      modelFile: "m", modelLine: 1, modelText: "", message: "")
    #expect(Acknowledgements.matches(note, near))
    #expect(!Acknowledgements.matches(note, far))
    #expect(!Acknowledgements.matches(note, otherKind))
  }
}
