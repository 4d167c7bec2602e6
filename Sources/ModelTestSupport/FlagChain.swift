import SignInModel

/// A model of `flags` boolean configuration variables and as many code steps in a row, step
/// `s<k>` reading flag `pool.f<k>` in its guards (both values lead on): every flag splits the
/// configuration classes, so there are 2^flags, and a depth-first exploration forks once per
/// step. The shape of a model that grows by a flag per feature.
package enum FlagChain {
  /// The model's YAML.
  package static func yaml(flags: Int) -> String {
    var yaml = """
      format: 3
      model: wide
      generation: test
      platforms: [swift]
      configuration:

      """
    for i in 0..<flags { yaml += "  pool.f\(i): {domain: bool, default: false}\n" }
    yaml += """
      responses:
        correctPassword: the right password
        correctCode: the right code
      signIn:
        responses:
          correctPassword:
            - goto: s0
              verifies: firstFactor
      steps:

      """
    for i in 0..<flags {
      let next = i + 1 < flags ? "s\(i + 1)" : "done"
      yaml += """
          s\(i):
            names: {swift: s\(i)}
            responses:
              correctCode:
                - when: "pool.f\(i)"
                  goto: \(next)
                  verifies: mfa
                - when: "!pool.f\(i)"
                  goto: \(next)
                  verifies: mfa

        """
    }
    yaml += "  done:\n    names: {swift: done}\n    ends: signedIn\n"
    return yaml
  }

  /// The model, loaded.
  package static func model(flags: Int) throws -> SignInModel {
    try ModelLoader.load(yaml: yaml(flags: flags), file: "wide.yaml")
  }
}
