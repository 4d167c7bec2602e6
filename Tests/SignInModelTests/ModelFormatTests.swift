import Testing

@testable import SignInModel

@Suite("Model format version 2: format, defaults and structured notes")
struct ModelFormatTests {
  @Test("a model without 'format:' is read as format 1; 'format: 2' is read as 2")
  func formatVersions() throws {
    #expect(try ModelLoader.load(yaml: TinyModel.yaml, file: "tiny.yaml").formatVersion == 1)
    let v2 = try ModelLoader.load(yaml: "format: 2\n" + TinyModel.yaml, file: "tiny.yaml")
    #expect(v2.formatVersion == 2)
  }

  @Test("a newer format is refused with one error at its line, naming the formats this build reads")
  func newerFormatRefused() {
    let diagnostics = TinyModel.diagnostics("format: 4\n" + TinyModel.yaml + "\nsomethingNew: true\n")
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.line == 1)
    #expect(diagnostics.first?.message.contains("format 4; this signin-spec reads formats 1...3") == true)
  }

  @Test("a format that is not a whole number is refused")
  func malformedFormat() {
    let diagnostics = TinyModel.diagnostics("format: two\n" + TinyModel.yaml)
    #expect(diagnostics.map(\.message) == ["'format:' must be a whole number from 1 to 3, not 'two'"])
  }

  @Test("a configuration variable's default is read as a domain value")
  func defaultValue() throws {
    let text = TinyModel.replacing(
      "  pool.mfa: [off, required]", with: "  pool.mfa: {domain: [off, required], default: required}")
    let model = try ModelLoader.load(yaml: text, file: "tiny.yaml")
    #expect(model.variables[0].defaultValue == 1)
    #expect(model.variables[1].defaultValue == nil)
  }

  @Test("a default outside the domain is an error at the default's line")
  func defaultOutsideDomain() {
    let text = TinyModel.replacing(
      "  pool.mfa: [off, required]", with: "  pool.mfa: {domain: [off, required], default: on}")
    let diagnostics = TinyModel.diagnostics(text)
    #expect(diagnostics.map(\.message) == ["default value 'on' is not in the domain [off, required] of 'pool.mfa'"])
    #expect(diagnostics.first?.line == 5)
  }

  @Test("a flow variable cannot have a default: it starts at its initial value")
  func flowDefaultRefused() {
    let text = TinyModel.replacing("{domain: 0..2, initial: 0}", with: "{domain: 0..2, initial: 0, default: 1}")
    #expect(TinyModel.diagnostics(text).first?.message.contains("'default:' is for configuration variables") == true)
  }

  @Test("notes carry the page, its lines and the kind of disagreement; top-level notes are read too")
  func structuredNotes() throws {
    let text = TinyModel.replacing(
      "  done:\n    ends: signedIn",
      with: """
          done:
            ends: signedIn
            notes:
              - {source: seeds, page: "002", lines: 120-134, kind: unknownStepName, text: the page names X}
              - {source: seeds, page: "003", line: 7, text: one line}
        notes:
          - {source: seeds, page: "001", lines: [10, 12], kind: setMismatch, text: sets differ}
        """)
    let model = try ModelLoader.load(yaml: text, file: "tiny.yaml")
    let notes = model.steps[2].notes
    #expect(notes.map(\.page) == ["002", "003"])
    #expect(notes.map(\.pageLines) == [120...134, 7...7])
    #expect(notes.map(\.kind) == ["unknownStepName", nil])
    #expect(notes[0].line == 44)
    #expect(model.notes.map(\.pageLines) == [10...12])
  }

  @Test("a note's lines must be FIRST-LAST with FIRST <= LAST")
  func badNoteLines() {
    let text = TinyModel.replacing(
      "  done:\n    ends: signedIn",
      with: """
          done:
            ends: signedIn
            notes:
              - {source: seeds, page: "002", lines: 134-120, text: backwards}
        """)
    #expect(
      TinyModel.diagnostics(text).map(\.message) == [
        "a note's 'lines:' must be FIRST-LAST (e.g. 120-134) with FIRST <= LAST"
      ])
  }
}
