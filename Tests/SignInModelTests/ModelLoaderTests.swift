import Testing

@testable import SignInModel

@Suite("Loading a model file")
struct ModelLoaderTests {
  @Test("the tiny model loads, with the signIn entry first and built-in flow variables added")
  func loadsTinyModel() throws {
    let model = try ModelLoader.load(yaml: TinyModel.yaml, file: "tiny.yaml")
    #expect(model.steps.map(\.id) == ["signIn", "code", "done"])
    #expect(model.steps[2].kind == .signedIn)
    #expect(model.configurationIndices.map { model.variables[$0].name } == ["pool.mfa", "user.phone"])
    #expect(
      model.flowIndices.map { model.variables[$0].name }
        == ["flow.tries", "flow.firstFactorVerified", "flow.mfaVerified", "flow.authFailed"])
    #expect(model.steps[1].names.last == PlatformName(platform: "android", form: .error("SomeException")))
    #expect(model.contentHash.count == 16)
  }

  @Test("a YAML syntax error names the line and column")
  func yamlSyntaxError() {
    let diagnostics = TinyModel.diagnostics(
      TinyModel.replacing("  pool.mfa: [off, required]", with: "  pool.mfa: [off, required"))
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.message.hasPrefix("YAML syntax error") == true)
    #expect((diagnostics.first?.line ?? 0) > 0)
    #expect(diagnostics.first?.description.hasPrefix("tiny.yaml:") == true)
  }

  @Test("a transition to an undeclared step is reported at its line, with the closest step name")
  func unknownStep() {
    let diagnostics = TinyModel.diagnostics(TinyModel.replacing("        goto: code\n", with: "        goto: cod\n"))
    #expect(diagnostics.map(\.message) == ["unknown step 'cod'; did you mean 'code'?"])
    #expect(diagnostics.first?.line == 26)
  }

  @Test("an unknown variable in a guard suggests the closest variable")
  func unknownVariable() {
    let diagnostics = TinyModel.diagnostics(
      TinyModel.replacing("when: \"pool.mfa == off\"", with: "when: \"pool.mfaa == off\""))
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.message.contains("unknown name 'pool.mfaa'; did you mean 'pool.mfa'?") == true)
    #expect(diagnostics.first?.line == 22)
    #expect(diagnostics.first?.column == 16)
  }

  @Test("a guard that does not type-check is reported")
  func guardTypeError() {
    let diagnostics = TinyModel.diagnostics(
      TinyModel.replacing("when: \"flow.tries < 2\"", with: "when: \"flow.tries && true\""))
    #expect(diagnostics.first?.message.contains("'&&' needs bool operands, not int and bool") == true)
  }

  @Test("a value outside an enumeration is reported with the closest value")
  func unknownEnumValue() {
    let diagnostics = TinyModel.diagnostics(
      TinyModel.replacing("when: \"pool.mfa == off\"", with: "when: \"pool.mfa == of\""))
    #expect(diagnostics.first?.message.contains("'of' is not one of [off, required]; did you mean 'off'?") == true)
  }

  @Test("a duplicate name is reported with the line of the first one")
  func duplicateName() {
    let diagnostics = TinyModel.diagnostics(
      TinyModel.replacing("  user.phone: bool\n", with: "  user.phone: bool\n  user.phone: bool\n"))
    #expect(diagnostics.map(\.message) == ["duplicate name 'user.phone' (first at line 6)"])
    #expect(diagnostics.first?.line == 7)
  }

  @Test("an empty domain is reported")
  func emptyDomain() {
    #expect(
      TinyModel.diagnostics(TinyModel.replacing("pool.mfa: [off, required]", with: "pool.mfa: []")).map(\.message)
        == ["variable 'pool.mfa' has an empty domain"])
    #expect(
      TinyModel.diagnostics(TinyModel.replacing("domain: 0..2", with: "domain: 2..0")).map(\.message)
        == ["variable 'flow.tries' has an empty domain 2..0"])
  }

  @Test("an unknown response name suggests the closest declared one")
  func unknownResponse() {
    let diagnostics = TinyModel.diagnostics(
      TinyModel.replacing("      correctCode:\n        - goto: done", with: "      correctCod:\n        - goto: done"))
    #expect(diagnostics.map(\.message) == ["unknown response 'correctCod'; did you mean 'correctCode'?"])
  }

  @Test("a rule with two outcomes is rejected")
  func twoOutcomes() {
    let diagnostics = TinyModel.diagnostics(
      TinyModel.replacing("restart: lockout", with: "restart: lockout\n          goto: done"))
    #expect(diagnostics.map(\.message) == ["a rule needs exactly one of goto, error or restart"])
  }

  @Test("rules may only set flow variables, and not the built-in ones")
  func settingConfiguration() {
    let config = TinyModel.diagnostics(
      TinyModel.replacing("set: {flow.tries: \"flow.tries + 1\"}", with: "set: {user.phone: true}"))
    #expect(config.map(\.message) == ["'user.phone' is a configuration variable; rules may only set flow variables"])
    let builtin = TinyModel.diagnostics(
      TinyModel.replacing("set: {flow.tries: \"flow.tries + 1\"}", with: "set: {flow.mfaVerified: true}"))
    #expect(builtin.first?.message.contains("is built in") == true)
  }

  @Test("an unknown top-level key suggests the closest one")
  func unknownKey() {
    let diagnostics = TinyModel.diagnostics(
      TinyModel.replacing("responses:\n  correctPassword", with: "respones:\n  correctPassword"))
    #expect(
      diagnostics.contains { $0.message == "unknown key 'respones' in the model file; did you mean 'responses'?" })
  }

  @Test("a missing file is a diagnostic, not a crash")
  func missingFile() {
    #expect(throws: ModelLoadError.self) { try ModelLoader.load(file: "/nonexistent/model.yaml") }
  }

  @Test("routes that call each other in a cycle are rejected")
  func routeCycle() {
    let text =
      TinyModel.yaml + """

        routes:
          a:
            - goto: b
          b:
            - goto: a
        """
    #expect(TinyModel.diagnostics(text).contains { $0.message == "routes form a cycle: a -> b -> a" })
  }

  @Test("a model with no done step is rejected")
  func noDoneStep() {
    let diagnostics = TinyModel.diagnostics(TinyModel.replacing("    ends: signedIn", with: "    ends: restart"))
    #expect(diagnostics.contains { $0.message == "no step has 'ends: signedIn'; the model needs a done step" })
  }
}
