import ClientBugs
import Foundation
import Testing

/// `make corpus` regenerates `counterexamples/` from every deliberate bug: its list in the
/// Makefile must be the catalogue, or a new bug would never reach the corpus.
@Suite("make corpus")
struct CorpusTargetTests {
  @Test("the Makefile's DELIBERATE_BUGS is the catalogue, in its order")
  func listIsTheCatalogue() throws {
    let makefile = try String(contentsOfFile: "Makefile", encoding: .utf8)
    let lines = makefile.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex { $0.hasPrefix("DELIBERATE_BUGS =") })
    var text = ""
    for line in lines[start...] {
      text += " " + line.replacingOccurrences(of: "\\", with: " ")
      if !line.hasSuffix("\\") { break }
    }
    let names = text.replacingOccurrences(of: "DELIBERATE_BUGS =", with: "")
      .split(whereSeparator: { $0 == " " }).map(String.init)
    #expect(names == DeliberateBug.allCases.map(\.rawValue))
  }
}
