import ArgumentParser
import Foundation
import Scenarios
import SignInModel

/// Asks the model what happens to one configuration for a sequence of calls.
struct Simulate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run calls against the model for one configuration and print what each call leads to.",
    discussion: """
      Each CALL is RESPONSE (answers the current step; at the start and after a restart or the end \
      of a flow it answers signIn) or ENTRY:RESPONSE (signIn:RESPONSE starts a new flow from scratch; \
      confirmSignIn:RESPONSE answers the current step). Configuration variables not given with --set \
      take the model's default: value. Without --platform the calls report Swift's names (the \
      default is swift); each error also names the exception behind it. Exit 0, 2 for a malformed model, 64 for bad usage.
      """)

  @Argument(help: "The model file.")
  var model: String

  @Argument(help: "The calls, in order: RESPONSE or ENTRY:RESPONSE.")
  var calls: [String] = []

  @Option(name: .customLong("set"), help: "NAME=VALUE for a configuration variable (repeatable).")
  var settings: [String] = []

  @Option(
    help: """
      The platform whose names the calls report (steps, and errors beside the exception behind \
      them); the JSON names it.
      """)
  var platform = "swift"

  @Option(help: "text or json.")
  var format = "text"

  func validate() throws {
    guard ["text", "json"].contains(format) else {
      throw ValidationError("--format must be text or json, not '\(format)'")
    }
    try OptionChecks.settings(settings)
    guard calls.count <= Self.maxCalls else {
      throw ValidationError("at most \(Self.maxCalls) calls per run (CALL arguments), not \(calls.count)")
    }
  }

  /// The most calls one run replays: each is printed, and thousands would run for minutes.
  static let maxCalls = 1_000

  func run() throws {
    let loaded = try ModelOptions.parse([model]).loadModels()[0]
    let pairs = try settings.map { s -> (name: String, value: String) in
      guard let eq = s.firstIndex(of: "=") else { throw ValidationError("--set takes NAME=VALUE, not '\(s)'") }
      return (String(s[..<eq]), String(s[s.index(after: eq)...]))
    }
    do {
      var session = try SimulationSession(model: loaded, settings: pairs, platform: platform)
      for call in calls { try session.call(call) }
      if format == "json" {
        print(SimulationJSON.render(session.records, platform: platform))
      } else {
        for (i, r) in session.records.enumerated() { print("\(i + 1). \(r.text)") }
      }
    } catch {
      printError("error: \(error.message)")
      throw ExitStatus.usage
    }
  }
}
