import CZ3
import Dispatch
import Foundation
import Testing

@testable import Z3Kit

/// The query time limit, kept by signin-spec's watchdog thread (not Z3's per-query timers).
@Suite("Z3 query time limits")
struct Z3WatchdogTests {
  /// Ten pigeons in nine holes, as integers: unsatisfiable, and Z3 4.8.12 takes minutes to say
  /// so (eight holes already take half a minute), so no time limit below a second is reached
  /// by an answer.
  static func pigeonhole(_ context: Z3Context, _ solver: Z3Solver, holes: Int = 9) {
    let pigeons = (0...holes).map { context.intConstant("pigeon\($0)") }
    for p in pigeons {
      solver.assert(context.lessOrEqual(context.int(1), p))
      solver.assert(context.lessOrEqual(p, context.int(holes)))
    }
    for i in pigeons.indices {
      for j in pigeons.indices where j > i { solver.assert(context.not(context.equal(pigeons[i], pigeons[j]))) }
    }
  }

  @Test("a query past its time limit answers unknown (timeout); the context answers the next query")
  func timeoutThenAnswer() throws {
    let context = try Z3Context(timeoutMilliseconds: 200)
    let solver = try Z3Solver(context)
    solver.push()
    Self.pigeonhole(context, solver)
    #expect(try solver.check() == .unknown(reason: "timeout"))
    solver.pop()
    let x = context.intConstant("x")
    solver.assert(x > context.int(2) && x < context.int(4))
    #expect(try solver.check() == .satisfiable)
    #expect(solver.integerValue(of: x) == 3)
    // A fresh solver on the same context, and a simplification, are not cancelled either.
    let fresh = try Z3Solver(context)
    fresh.assert(x > context.int(7))
    #expect(try fresh.check() == .satisfiable)
    #expect(context.simplify(context.add(context.int(1), context.int(2))).description == "3")
  }

  @Test("a query within its time limit is answered, and no interrupt reaches later queries")
  func answeredQueriesAreLeftAlone() throws {
    let context = try Z3Context(timeoutMilliseconds: 60_000)
    let x = context.intConstant("x")
    for k in 0..<200 {
      let solver = try Z3Solver(context)
      solver.assert(x > context.int(k) && x < context.int(k + 2))
      #expect(try solver.check() == .satisfiable)
      #expect(solver.integerValue(of: x) == k + 1)
    }
  }

  @Test("queries with one time limit wake the watchdog thread once, not once per query")
  func oneWakeupPerLimit() throws {
    let watchdog = Z3Watchdog()
    let context = try Z3Context()
    for k in 0..<200 {
      let (value, interrupted) = watchdog.run(context.raw, milliseconds: 60_000) { k * 2 }
      #expect(value == k * 2)
      #expect(!interrupted)
    }
    #expect(watchdog.signalCount == 1)
  }

  @Test("a shorter limit after longer ones wakes the watchdog, and its query is interrupted")
  func shorterLimitWakesTheWatchdog() throws {
    let watchdog = Z3Watchdog()
    let context = try Z3Context()
    let first = watchdog.run(context.raw, milliseconds: 60_000) { 1 }
    #expect(first.0 == 1 && !first.interrupted)
    let solver = try Z3Solver(context)
    Self.pigeonhole(context, solver)
    let (answer, interrupted) = watchdog.run(context.raw, milliseconds: 200) {
      Z3_solver_check(context.raw, solver.raw)
    }
    #expect(interrupted)
    #expect(answer == Z3_L_UNDEF)
    #expect(watchdog.signalCount == 2)
  }

  @Test("contexts on two threads: one query times out, the other thread's queries are all answered")
  func threadsAreIndependent() throws {
    let answers = Answers()
    DispatchQueue.concurrentPerform(iterations: 2) { i in
      do {
        if i == 0 {
          let context = try Z3Context(timeoutMilliseconds: 300)
          let solver = try Z3Solver(context)
          Self.pigeonhole(context, solver)
          answers.add(try solver.check())
        } else {
          let context = try Z3Context(timeoutMilliseconds: 60_000)
          let x = context.intConstant("x")
          for k in 0..<300 {
            let solver = try Z3Solver(context)
            solver.assert(x > context.int(k) && x < context.int(k + 2))
            answers.add(try solver.check())
          }
        }
      } catch {
        answers.add(.unknown(reason: "\(error)"))
      }
    }
    let all = answers.all
    #expect(all.count == 301)
    #expect(all.filter { $0 == .satisfiable }.count == 300)
    #expect(all.filter { $0 == .unknown(reason: "timeout") }.count == 1)
  }

  @Test("firstValues gives the lexicographically first solution, whatever model Z3 found first")
  func firstValues() throws {
    let context = try Z3Context()
    let x = context.intConstant("x")
    let y = context.intConstant("y")
    let z = context.intConstant("z")
    let solver = try Z3Solver(context)
    for v in [x, y, z] {
      solver.assert(context.lessOrEqual(context.int(0), v))
      solver.assert(context.lessOrEqual(v, context.int(3)))
    }
    solver.assert(context.equal(context.add(x, context.add(y, z)), context.int(5)))
    solver.assert(context.not(context.equal(x, context.int(0))))
    #expect(try solver.check() == .satisfiable)
    let domains = Array(repeating: [0, 1, 2, 3], count: 3)
    #expect(try solver.firstValues(of: [x, y, z], domains: domains) == [1, 1, 3])
    // Domain order is the order of preference: z first, its values from 3 down.
    #expect(
      try solver.firstValues(of: [z, y, x], domains: [[3, 2, 1, 0], [0, 1, 2, 3], [0, 1, 2, 3]]) == [3, 0, 2])
    // The solver's assertions are as before: another model is still allowed.
    solver.assert(context.equal(y, context.int(3)))
    #expect(try solver.check() == .satisfiable)
    #expect(try solver.firstValues(of: [x, y, z], domains: domains) == [1, 3, 1])
  }
}

/// Answers collected from several threads.
private final class Answers: @unchecked Sendable {
  private let lock = NSLock()
  private var answers: [Z3Result] = []
  func add(_ answer: Z3Result) {
    lock.lock()
    answers.append(answer)
    lock.unlock()
  }
  var all: [Z3Result] {
    lock.lock()
    defer { lock.unlock() }
    return answers
  }
}
