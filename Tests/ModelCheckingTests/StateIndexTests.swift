import ModelChecking
import SignInModel
import Testing

/// The explicit search indexes states by step and flow packed into one integer when they fit in
/// 63 bits, and by step and flow array otherwise; both must find the same states.
@Suite("States indexed packed or not")
struct StateIndexTests {
  /// The 4,002-state chain of `SearchLimitTests`, with `extra` more flow variables of 12 bits
  /// each that no rule changes: with five of them the flow needs 72 bits, too many to pack.
  static func chain(extra: Int) throws -> SignInModel {
    let wide = (0..<extra).map { "\n  flow.unused\($0): {domain: 0..4000, initial: \($0)}" }.joined()
    return try smallModel(
      configuration: "  pool.mfa: [required]\n  user.phone: bool",
      flow: "  flow.n: {domain: 0..4000, initial: 0}" + wide,
      signIn: """
            correctPassword:
              - goto: code
                verifies: firstFactor
        """,
      steps: """
          code:
            names: {swift: confirmSignInWithSMSMFACode}
            responses:
              correctCode:
                - goto: done
                  verifies: mfa
              wrongCode:
                - when: "flow.n < 4000 && user.phone"
                  error: CodeMismatchException
                  set: {flow.n: "flow.n + 1"}
                - when: "flow.n < 4000 && !user.phone"
                  error: CodeMismatchException
                  set: {flow.n: "flow.n + 2"}
                - when: "flow.n >= 4000"
                  restart: lockout
        """)
  }

  @Test("a flow too wide to pack is searched like one that packs: same classes, states, edges, verdicts")
  func unpackedLikePacked() throws {
    let packed = ExplicitChecker(model: try Self.chain(extra: 0), jobs: 1).check()
    let unpacked = ExplicitChecker(model: try Self.chain(extra: 5), jobs: 1).check()
    #expect(packed.statistics.states > 4000)
    #expect(unpacked.statistics.configurationClasses == packed.statistics.configurationClasses)
    #expect(unpacked.statistics.states == packed.statistics.states)
    #expect(unpacked.statistics.transitions == packed.statistics.transitions)
    #expect(unpacked.results.map(\.verdict) == packed.results.map(\.verdict))
  }
}
