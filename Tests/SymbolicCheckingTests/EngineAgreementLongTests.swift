import Foundation
import ModelChecking
import SignInModel
import SymbolicChecking
import Testing

/// The long tier of `EngineAgreementTests` (`make test-long`): Spacer on the shipped models and
/// the whole seeded mutant corpus. `make test` runs a smoke run of each.
@Suite("Explicit and symbolic engines agree (long tier)")
struct EngineAgreementLongTests {
  static let models = EngineAgreementTests.models

  /// Spacer leaves two invariants of the 2024 model UNKNOWN within its budget since the fidelity
  /// variables (docs/guide/limits.md); the backward fixpoint checks them
  /// (`EngineAgreementTests.shippedModelsProven`) and they are left out here.
  static let spacerUndecided: [String: Set<String>] = [models[1]: ["noFactorSkipped", "preferredMFAHonoured"]]

  @Test(
    "Spacer and the backward fixpoint agree with the explicit engine on the 2023 and 2024 models",
    arguments: [(models[0], SymbolicChecker.Engine.spacer), (models[1], .spacer), (models[0], .fixpoint)])
  func bothZ3Engines(file: String, engine: SymbolicChecker.Engine) throws {
    let model = try ModelLoader.load(file: file)
    let undecided = engine == .spacer ? Self.spacerUndecided[file, default: []] : []
    let checked = Invariant.all(for: model).filter { !undecided.contains($0.rawValue) }
    #expect(checked.count == Invariant.all(for: model).count - undecided.count, "an undecided name is unknown")
    #expect(EngineAgreementTests.disagreements(model, engine: engine, invariants: checked) == [])
  }

  @Test("on a seeded corpus of mutants of the 2023 and 2024 models, the engines agree on every invariant")
  func mutants() throws {
    let count = Int(ProcessInfo.processInfo.environment["SIGNIN_SPEC_MUTANTS"] ?? "") ?? 24
    try EngineAgreementTests.checkMutants(count: count)
  }
}
