import CZ3
import Foundation

/// Z3 4.8.12's query timers are not safe when several threads run timed queries at once
/// (a test run hung inside libz3 with two); Spacer's queries, the only ones still timed by Z3
/// (solver queries are timed by `Z3Watchdog`), take this lock, so they run one at a time.
private let timedCallLock = NSLock()

/// The version of the linked Z3 library, e.g. "4.8.12.0".
package func z3Version() -> String {
  var major: UInt32 = 0
  var minor: UInt32 = 0
  var build: UInt32 = 0
  var revision: UInt32 = 0
  Z3_get_version(&major, &minor, &build, &revision)
  return "\(major).\(minor).\(build).\(revision)"
}

/// An error Z3 reported through its error handler (a bad argument, an exhausted resource),
/// thrown by the next query on the context instead of reaching a null result.
package struct Z3Error: Error, Sendable, Equatable, CustomStringConvertible {
  package let code: Int
  package let message: String
  package var description: String { "Z3 error \(code): \(message)" }
}

/// The first error per context, recorded by the C error handler (a plain C function, so it
/// cannot capture its `Z3Context`). Shared by every thread that owns a context, hence the
/// lock; each entry is written by Z3 on the owning thread and read by that same context.
private enum Z3ErrorLog {
  nonisolated(unsafe) static var errors: [OpaquePointer: Z3Error] = [:]
  static let lock = NSLock()

  static func record(_ context: Z3_context?, _ code: Z3_error_code) {
    guard let context else { return }
    let message = Z3_get_error_msg(context, code).map { String(cString: $0) } ?? "unknown error"
    lock.lock()
    defer { lock.unlock() }
    if errors[context] == nil { errors[context] = Z3Error(code: Int(code.rawValue), message: message) }
  }

  static func take(_ context: Z3_context) -> Z3Error? {
    lock.lock()
    defer { lock.unlock() }
    return errors.removeValue(forKey: context)
  }
}

/// Bytes Z3's own allocator holds now, over every context of the process (Z3's estimate, which
/// counts allocations, so it does not depend on the system allocator or on timing).
package func z3AllocatedBytes() -> UInt64 {
  UInt64(Z3_get_estimated_alloc_size())
}

/// Sets a Z3 global parameter, e.g. `memory_max_size` (megabytes) for every context.
package func z3SetGlobalParameter(_ name: String, _ value: String) {
  Z3_global_param_set(name, value)
}

/// Owns one reference-counted Z3 context (`Z3_mk_context_rc`); every `Z3Term` made from
/// it holds a reference and releases it when dropped, so long runs do not leak.
///
/// Not `Sendable`: a Z3 context is not thread-safe, so a context and everything made from
/// it (terms, relations, solvers) stay on the thread that created them.
package final class Z3Context {
  let raw: Z3_context
  /// The time limit of each solver query on this context, kept by `Z3Watchdog`.
  let timeoutMilliseconds: UInt32?
  /// The literal `false`, standing in for a term Z3 failed to make (its error is recorded).
  private let falseLiteral: Z3_ast

  /// Creates a context; `timeoutMilliseconds` bounds every solver query made from it, and
  /// `resourceLimit` (Z3's `rlimit`, 0 for none) bounds the work of every query on it: unlike
  /// a time limit, the same query stops at the same point on any machine.
  /// - Throws: `Z3Error` when Z3 cannot make one (out of memory).
  package init(timeoutMilliseconds: UInt32? = nil, resourceLimit: UInt32 = 0) throws(Z3Error) {
    guard let config = Z3_mk_config() else { throw Z3Error(code: -1, message: "Z3_mk_config failed") }
    if resourceLimit > 0 {
      Z3_set_param_value(config, "rlimit", String(resourceLimit))
    }
    let context = Z3_mk_context_rc(config)
    Z3_del_config(config)
    guard let context else { throw Z3Error(code: -1, message: "Z3_mk_context_rc failed") }
    // Errors are recorded, not fatal (Z3's default handler exits the process); the next query
    // on this context throws them. Set before the first call that can fail.
    Z3_set_error_handler(context, { context, code in Z3ErrorLog.record(context, code) })
    guard let falseLiteral = Z3_mk_false(context) else {
      _ = Z3ErrorLog.take(context)
      Z3_del_context(context)
      throw Z3Error(code: -1, message: "Z3_mk_false failed")
    }
    Z3_inc_ref(context, falseLiteral)
    self.timeoutMilliseconds = timeoutMilliseconds
    raw = context
    self.falseLiteral = falseLiteral
  }

  deinit {
    _ = Z3ErrorLog.take(raw)
    Z3_dec_ref(raw, falseLiteral)
    Z3_del_context(raw)
  }

  /// Throws the first error Z3 reported on this context since the last call.
  package func throwIfFailed() throws(Z3Error) {
    if let error = takeError() { throw error }
  }

  /// The first error Z3 reported on this context since the last call, cleared.
  func takeError() -> Z3Error? { Z3ErrorLog.take(raw) }

  /// A term for `ast`, or `false` (with an error recorded) when Z3 returned none.
  func term(_ ast: Z3_ast?) -> Z3Term {
    if let ast { return Z3Term(self, ast) }
    Z3ErrorLog.record(raw, Z3_INTERNAL_FATAL)
    return Z3Term(self, falseLiteral)
  }

  var intSort: Z3_sort { Z3_mk_int_sort(raw) }

  /// An integer constant named `name`.
  package func intConstant(_ name: String) -> Z3Term {
    self.term(Z3_mk_const(raw, Z3_mk_string_symbol(raw, name), intSort))
  }

  /// The integer literal `value`.
  package func int(_ value: Int) -> Z3Term {
    self.term(Z3_mk_int64(raw, Int64(value), intSort))
  }

  package func bool(_ value: Bool) -> Z3Term { self.term(value ? Z3_mk_true(raw) : Z3_mk_false(raw)) }

  package func and(_ terms: [Z3Term]) -> Z3Term {
    if terms.isEmpty { return bool(true) }
    if terms.count == 1 { return terms[0] }
    let args: [Z3_ast?] = terms.map(\.raw)
    return self.term(Z3_mk_and(raw, UInt32(args.count), args))
  }

  package func or(_ terms: [Z3Term]) -> Z3Term {
    if terms.isEmpty { return bool(false) }
    if terms.count == 1 { return terms[0] }
    let args: [Z3_ast?] = terms.map(\.raw)
    return self.term(Z3_mk_or(raw, UInt32(args.count), args))
  }

  package func not(_ term: Z3Term) -> Z3Term { self.term(Z3_mk_not(raw, term.raw)) }
  package func implies(_ a: Z3Term, _ b: Z3Term) -> Z3Term { self.term(Z3_mk_implies(raw, a.raw, b.raw)) }
  package func equal(_ a: Z3Term, _ b: Z3Term) -> Z3Term { self.term(Z3_mk_eq(raw, a.raw, b.raw)) }
  package func less(_ a: Z3Term, _ b: Z3Term) -> Z3Term { self.term(Z3_mk_lt(raw, a.raw, b.raw)) }
  package func lessOrEqual(_ a: Z3Term, _ b: Z3Term) -> Z3Term { self.term(Z3_mk_le(raw, a.raw, b.raw)) }
  package func ite(_ c: Z3Term, _ a: Z3Term, _ b: Z3Term) -> Z3Term { self.term(Z3_mk_ite(raw, c.raw, a.raw, b.raw)) }

  package func add(_ a: Z3Term, _ b: Z3Term) -> Z3Term {
    let args: [Z3_ast?] = [a.raw, b.raw]
    return self.term(Z3_mk_add(raw, 2, args))
  }

  package func subtract(_ a: Z3Term, _ b: Z3Term) -> Z3Term {
    let args: [Z3_ast?] = [a.raw, b.raw]
    return self.term(Z3_mk_sub(raw, 2, args))
  }

  /// Z3's identifier of `term`: equal terms of one context have the same, while they live.
  package func id(of term: Z3Term) -> UInt32 { Z3_get_ast_id(raw, term.raw) }

  /// Whether `a` and `b` are the very same terms, one for one (Z3 shares equal terms).
  package func sameTerms(_ a: [Z3Term], _ b: [Z3Term]) -> Bool {
    a.elementsEqual(b) { id(of: $0) == id(of: $1) }
  }

  /// Z3's simplifier, within the query time limit (past it Z3 records an error, which the
  /// next query throws).
  package func simplify(_ term: Z3Term) -> Z3Term {
    guard let timeoutMilliseconds else { return self.term(Z3_simplify(raw, term.raw)) }
    return self.term(Z3Watchdog.shared.run(raw, milliseconds: timeoutMilliseconds) { Z3_simplify(raw, term.raw) }.0)
  }

  /// `term` with each constant in `from` replaced by the term at the same index in `to`.
  package func substitute(_ term: Z3Term, _ from: [Z3Term], _ to: [Z3Term]) -> Z3Term {
    let f: [Z3_ast?] = from.map(\.raw)
    let t: [Z3_ast?] = to.map(\.raw)
    return self.term(Z3_substitute(raw, term.raw, UInt32(f.count), f, t))
  }

  /// `∀ variables. body`, with `variables` given as constants.
  package func forAll(_ variables: [Z3Term], _ body: Z3Term) -> Z3Term {
    if variables.isEmpty { return body }
    let apps: [Z3_app?] = variables.map { Z3_to_app(raw, $0.raw) }
    return self.term(Z3_mk_forall_const(raw, 0, UInt32(apps.count), apps, 0, nil, body.raw))
  }

  /// A relation over integers, for the fixedpoint engine.
  package func relation(_ name: String, arity: Int) throws(Z3Error) -> Z3Relation {
    let domain: [Z3_sort?] = Array(repeating: intSort, count: arity)
    guard let decl = Z3_mk_func_decl(raw, Z3_mk_string_symbol(raw, name), UInt32(arity), domain, Z3_mk_bool_sort(raw))
    else {
      try throwIfFailed()
      throw Z3Error(code: -1, message: "Z3_mk_func_decl returned no declaration for \(name)")
    }
    return Z3Relation(self, decl)
  }

  /// The last error Z3 reported on this context, if any.
  package var lastError: String? {
    let code = Z3_get_error_code(raw)
    if code == Z3_OK { return nil }
    return Z3_get_error_msg(raw, code).map { String(cString: $0) } ?? "error \(code.rawValue)"
  }
}

/// A Z3 AST that keeps its context alive and its reference count balanced; confined to
/// its context's thread like the context.
package final class Z3Term {
  let context: Z3Context
  let raw: Z3_ast

  init(_ context: Z3Context, _ raw: Z3_ast) {
    self.context = context
    self.raw = raw
    Z3_inc_ref(context.raw, self.raw)
  }

  deinit { Z3_dec_ref(context.raw, raw) }

  package static func > (lhs: Z3Term, rhs: Z3Term) -> Z3Term { lhs.context.less(rhs, lhs) }
  package static func < (lhs: Z3Term, rhs: Z3Term) -> Z3Term { lhs.context.less(lhs, rhs) }
  package static func == (lhs: Z3Term, rhs: Z3Term) -> Z3Term { lhs.context.equal(lhs, rhs) }
  package static func && (lhs: Z3Term, rhs: Z3Term) -> Z3Term { lhs.context.and([lhs, rhs]) }

  /// Z3's own rendering of the term (SMT-LIB 2 syntax).
  package var description: String { Z3_ast_to_string(context.raw, raw).map { String(cString: $0) } ?? "?" }

  /// True for the literal `true` / `false` after simplification.
  package var isTrue: Bool { Z3_get_bool_value(context.raw, raw) == Z3_L_TRUE }
  package var isFalse: Bool { Z3_get_bool_value(context.raw, raw) == Z3_L_FALSE }
}

/// A relation symbol (an uninterpreted predicate over integers); confined like its context.
package final class Z3Relation {
  let context: Z3Context
  let decl: Z3_func_decl

  init(_ context: Z3Context, _ decl: Z3_func_decl) {
    self.context = context
    self.decl = decl
    Z3_inc_ref(context.raw, Z3_func_decl_to_ast(context.raw, decl))
  }

  deinit { Z3_dec_ref(context.raw, Z3_func_decl_to_ast(context.raw, decl)) }

  /// The application `R(arguments)`.
  package func callAsFunction(_ arguments: [Z3Term]) -> Z3Term {
    let args: [Z3_ast?] = arguments.map(\.raw)
    return context.term(Z3_mk_app(context.raw, decl, UInt32(args.count), args))
  }
}

/// The answer of a satisfiability or reachability query.
package enum Z3Result: Equatable, Sendable {
  case satisfiable, unsatisfiable
  case unknown(reason: String)
}

/// A Z3 solver over one context; confined like its context.
package final class Z3Solver {
  let context: Z3Context
  let raw: Z3_solver

  /// What every solver runs: Z3's preprocessing of quantifier-free integer formulas (constant
  /// folding, equalities `x = numeral` propagated and solved away), then its SMT core. A solver
  /// made from a tactic solves each `check()` from scratch (push and pop still work); on the
  /// fixpoints' queries, which are mostly equalities and each asked once, that beats the
  /// incremental core of `Z3_mk_solver`: `prove --jobs 1` of the three shipped models took 0.81
  /// of its CPU time (median of 6 paired runs), with the same verdicts, counterexamples and
  /// iteration counts on 115 models and mutants.
  static let tactics = ["simplify", "propagate-values", "solve-eqs", "smt"]

  /// A solver running `tactics`, or with `incremental` Z3's incremental core (`Z3_mk_solver`):
  /// for assertions that pile up over many checks (a fixpoint's growth check asserts each layer
  /// once; the bounded search one call at a time), which a tactic would solve again each time
  /// (a 50-state chain took 1.6 times as long).
  package init(_ context: Z3Context, incremental: Bool = false) throws(Z3Error) {
    self.context = context
    let made: Z3_solver?
    if incremental {
      made = Z3_mk_solver(context.raw)
    } else if let tactic = Self.tactic(context) {
      made = Z3_mk_solver_from_tactic(context.raw, tactic)
      Z3_tactic_dec_ref(context.raw, tactic)
    } else {
      made = nil
    }
    guard let solver = made else {
      try context.throwIfFailed()
      throw Z3Error(code: -1, message: "Z3 made no solver")
    }
    raw = solver
    Z3_solver_inc_ref(context.raw, raw)
  }

  /// `tactics` one after the other, with one reference held; nil when Z3 made none.
  private static func tactic(_ context: Z3Context) -> Z3_tactic? {
    let c = context.raw
    var chain: Z3_tactic?
    for name in tactics {
      guard let next = Z3_mk_tactic(c, name) else {
        if let chain { Z3_tactic_dec_ref(c, chain) }
        return nil
      }
      Z3_tactic_inc_ref(c, next)
      guard let first = chain else {
        chain = next
        continue
      }
      let both = Z3_tactic_and_then(c, first, next)
      if let both { Z3_tactic_inc_ref(c, both) }
      Z3_tactic_dec_ref(c, first)
      Z3_tactic_dec_ref(c, next)
      guard let both else { return nil }
      chain = both
    }
    return chain
  }

  deinit { Z3_solver_dec_ref(context.raw, raw) }

  package func assert(_ term: Z3Term) { Z3_solver_assert(context.raw, raw, term.raw) }
  package func push() { Z3_solver_push(context.raw, raw) }

  package func pop() { Z3_solver_pop(context.raw, raw, 1) }

  /// Z3's deterministic work counter ("rlimit count" in the solver's statistics; what
  /// `--rlimit` bounds): the context's, counting the work of every solver and simplification
  /// on it, and the same on any machine, so a search can stop at the same point everywhere.
  /// Nil while Z3 reports none (it leaves the key out while the count is 0).
  package var resourceCount: UInt64? {
    guard let stats = Z3_solver_get_statistics(context.raw, raw) else { return nil }
    Z3_stats_inc_ref(context.raw, stats)
    defer { Z3_stats_dec_ref(context.raw, stats) }
    for i in 0..<Z3_stats_size(context.raw, stats) {
      guard let key = Z3_stats_get_key(context.raw, stats, i), String(cString: key) == "rlimit count" else { continue }
      return Z3_stats_is_uint(context.raw, stats, i)
        ? UInt64(Z3_stats_get_uint_value(context.raw, stats, i))
        : UInt64(max(0, Z3_stats_get_double_value(context.raw, stats, i)))
    }
    return nil
  }

  /// - Throws: `Z3Error` when Z3 reported an error on this context since the last query.
  package func check() throws(Z3Error) -> Z3Result {
    try context.throwIfFailed()
    let answer: Z3_lbool
    var interrupted = false
    if let milliseconds = context.timeoutMilliseconds {
      (answer, interrupted) = Z3Watchdog.shared.run(context.raw, milliseconds: milliseconds) {
        Z3_solver_check(context.raw, raw)
      }
    } else {
      answer = Z3_solver_check(context.raw, raw)
    }
    if let error = context.takeError() {
      // The memory cap cancels the query through the error handler too.
      if answer == Z3_L_UNDEF { return .unknown(reason: error.message) }
      throw error
    }
    if interrupted, answer == Z3_L_UNDEF { return .unknown(reason: "timeout") }
    switch answer {
    case Z3_L_TRUE: return .satisfiable
    case Z3_L_FALSE: return .unsatisfiable
    default: return .unknown(reason: text(Z3_solver_get_reason_unknown(context.raw, raw)))
    }
  }

  /// The integer value of `term` in the model of the last satisfiable `check()`.
  package func integerValue(of term: Z3Term) -> Int? {
    guard let model = Z3_solver_get_model(context.raw, raw) else { return nil }
    Z3_model_inc_ref(context.raw, model)
    defer { Z3_model_dec_ref(context.raw, model) }
    var result: Z3_ast?
    guard Z3_model_eval(context.raw, model, term.raw, true, &result), let result else { return nil }
    Z3_inc_ref(context.raw, result)
    defer { Z3_dec_ref(context.raw, result) }
    var value: Int64 = 0
    guard Z3_get_numeral_int64(context.raw, result, &value) else { return nil }
    return Int(value)
  }
}

/// Z3's fixedpoint engine (Spacer) over constrained Horn clauses; confined like its context.
package final class Z3Fixedpoint {
  let context: Z3Context
  let raw: Z3_fixedpoint
  private var ruleCount = 0

  /// - Parameters:
  ///   - timeoutMilliseconds: bounds each `query`; hitting it answers `unknown`.
  ///   - keepsRelations: keep every relation's arguments (no slicing), so that `invariant(of:)`
  ///     can read a relation's cover; with slicing Z3 4.8.12 may drop arguments of the relation,
  ///     and reading its cover then crashes inside libz3.
  package init(_ context: Z3Context, timeoutMilliseconds: UInt32, keepsRelations: Bool = false) throws(Z3Error) {
    self.context = context
    guard let fixedpoint = Z3_mk_fixedpoint(context.raw) else {
      try context.throwIfFailed()
      throw Z3Error(code: -1, message: "Z3_mk_fixedpoint failed")
    }
    raw = fixedpoint
    Z3_fixedpoint_inc_ref(context.raw, raw)
    // Without parameters (Z3 out of memory) the error is recorded and the first query throws.
    if let params = Z3_mk_params(context.raw) {
      Z3_params_inc_ref(context.raw, params)
      Z3_params_set_symbol(
        context.raw, params, Z3_mk_string_symbol(context.raw, "engine"), Z3_mk_string_symbol(context.raw, "spacer"))
      Z3_params_set_uint(context.raw, params, Z3_mk_string_symbol(context.raw, "timeout"), timeoutMilliseconds)
      if keepsRelations {
        Z3_params_set_bool(context.raw, params, Z3_mk_string_symbol(context.raw, "xform.slice"), false)
      }
      Z3_fixedpoint_set_params(context.raw, raw, params)
      Z3_params_dec_ref(context.raw, params)
    }
  }

  deinit { Z3_fixedpoint_dec_ref(context.raw, raw) }

  package func register(_ relation: Z3Relation) { Z3_fixedpoint_register_relation(context.raw, raw, relation.decl) }

  /// Adds a Horn clause, already closed with `forAll`.
  package func addRule(_ rule: Z3Term) {
    ruleCount += 1
    Z3_fixedpoint_add_rule(context.raw, raw, rule.raw, Z3_mk_string_symbol(context.raw, "r\(ruleCount)"))
  }

  /// Is some application of `relation` derivable? `.satisfiable` means reachable.
  /// - Throws: `Z3Error` when Z3 reported an error on this context since the last query.
  package func query(_ relation: Z3Relation) throws(Z3Error) -> Z3Result {
    try context.throwIfFailed()
    var decls: [Z3_func_decl?] = [relation.decl]
    timedCallLock.lock()
    let answer = Z3_fixedpoint_query_relations(context.raw, raw, 1, &decls)
    timedCallLock.unlock()
    if let error = context.takeError() {
      // A time limit or the memory cap cancels the query through the error handler too.
      if answer == Z3_L_UNDEF { return .unknown(reason: error.message) }
      throw error
    }
    switch answer {
    case Z3_L_TRUE: return .satisfiable
    case Z3_L_FALSE: return .unsatisfiable
    default: return .unknown(reason: text(Z3_fixedpoint_get_reason_unknown(context.raw, raw)))
    }
  }

  /// After `.unsatisfiable`: the inductive invariant Z3 found for `relation`, over its
  /// arguments given as `arguments`; nil when Z3 has none to give. Only on a fixedpoint made
  /// with `keepsRelations`.
  package func invariant(of relation: Z3Relation, arguments: [Z3Term]) -> Z3Term? {
    guard let cover = Z3_fixedpoint_get_cover_delta(context.raw, raw, -1, relation.decl) else { return nil }
    let term = context.term(cover)
    // The cover is over de Bruijn variables 0..n-1 in argument order.
    let args: [Z3_ast?] = arguments.map(\.raw)
    return context.term(Z3_substitute_vars(context.raw, term.raw, UInt32(args.count), args))
  }
}
