import ModelChecking
import SignInModel
import Testing
import Z3Kit

@testable import SymbolicChecking

/// Properties that ask the same fixpoint share it: `everyPathReaches` of a condition that holds
/// after exactly the branches into a terminal step or a restart takes `terminates`' sets.
@Suite("Fixpoints shared between properties")
struct SharedFixpointTests {
  @Test("the flow-ending target of smsCodeLeadsToEnd reuses terminates' sets, equal to its own fixpoint's")
  func endingConditionReusesTerminates() throws {
    let model = try ModelLoader.load(file: "models/2026-all-platforms.yaml")
    let system = TransitionSystem(model: model)
    let session = try SymbolicSession(
      model: model, system: system, timeoutMilliseconds: 60_000, resourceLimit: 0)
    let fixpoint = BackwardFixpoint(session: session)
    let check = try #require(system.propertyChecks.first { $0.property.name == "smsCodeLeadsToEnd" })
    let target = try #require(check.target)
    let proofs = PropertyFixpoint(fixpoint: fixpoint)

    // Its own fixpoint, before terminates is proven.
    guard case .sets(let computed, let computedIterations) = try proofs.everyPathReaches(target) else {
      Issue.record("no fixpoint for the target")
      return
    }
    guard case .proven(let iterations, let ends) = try fixpoint.allPathsEnd() else {
      Issue.record("terminates is not proven on the 2026 model")
      return
    }
    session.everyPathReachesCache = [:]
    session.allPathsEnd = (ends, iterations)
    guard case .sets(let reused, let reusedIterations) = try proofs.everyPathReaches(target) else {
      Issue.record("no fixpoint for the target")
      return
    }

    let context = session.context
    let nonTerminal = model.steps.indices.filter { !model.steps[$0].isTerminal }
    // Taken from terminates, not computed again: the very terms of its sets.
    #expect(context.sameTerms(nonTerminal.map { reused[$0] }, nonTerminal.map { ends[$0] }))
    #expect(reusedIterations == computedIterations)
    // And the same sets: no valid configuration and flow is in one and not the other.
    let solver = try Z3Solver(context)
    solver.assert(context.and(model.variables.indices.map { session.encoding.inDomain($0, session.state[$0]!) }))
    solver.assert(session.encoding.validConfiguration(session.state))
    for s in model.steps.indices {
      solver.push()
      solver.assert(context.not(context.equal(reused[s], computed[s])))
      #expect(try solver.check() == .unsatisfiable, "step \(model.steps[s].id)")
      solver.pop()
    }
  }
}
