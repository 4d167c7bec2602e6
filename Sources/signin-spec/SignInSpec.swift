import ArgumentParser

/// `signin-spec`: model-checks the Amplify Auth multi-step sign-in flow.
@main
struct SignInSpec: AsyncParsableCommand {
  static let version = "0.1.0"

  static let configuration = CommandConfiguration(
    commandName: "signin-spec",
    abstract: "Model-check the Amplify Auth multi-step sign-in flow.",
    discussion: """
      Exit status: 0 every check holds; 1 an invariant is violated or holds only vacuously; \
      2 a model file is malformed; 3 internal error; 4 inconclusive (a limit was reached, \
      verdict UNKNOWN, nothing violated); 64 bad command-line usage.
      """,
    version: version,
    subcommands: [
      Verify.self, Prove.self, Fuzz.self, Replay.self, List.self, Bench.self, Simulate.self, ScenariosCommand.self,
      Docs.self, Export.self, Graph.self, Diff.self, Lint.self, Serve.self, Diagnose.self, Report.self,
    ])
}
