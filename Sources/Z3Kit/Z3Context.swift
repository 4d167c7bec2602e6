import CZ3

/// The version of the linked Z3 library, e.g. "4.8.12.0".
public func z3Version() -> String {
  var major: UInt32 = 0, minor: UInt32 = 0, build: UInt32 = 0, revision: UInt32 = 0
  Z3_get_version(&major, &minor, &build, &revision)
  return "\(major).\(minor).\(build).\(revision)"
}

/// Owns one reference-counted Z3 context (`Z3_mk_context_rc`); every `Z3Term`
/// made from it holds a reference and releases it when dropped.
public final class Z3Context: @unchecked Sendable {
  let raw: Z3_context

  /// Creates a context; `timeoutMilliseconds` bounds every solver query made from it.
  public init(timeoutMilliseconds: UInt32? = nil) {
    let config = Z3_mk_config()!
    if let timeoutMilliseconds {
      Z3_set_param_value(config, "timeout", String(timeoutMilliseconds))
    }
    raw = Z3_mk_context_rc(config)
    Z3_del_config(config)
    // Errors are reported through Z3_get_error_code instead of aborting the process.
    Z3_set_error_handler(raw, nil)
  }

  deinit { Z3_del_context(raw) }

  /// An integer constant named `name`.
  public func intConstant(_ name: String) -> Z3Term {
    let symbol = Z3_mk_string_symbol(raw, name)
    return Z3Term(self, Z3_mk_const(raw, symbol, Z3_mk_int_sort(raw)))
  }

  /// The integer literal `value`.
  public func int(_ value: Int) -> Z3Term {
    Z3Term(self, Z3_mk_int64(raw, Int64(value), Z3_mk_int_sort(raw)))
  }

  /// The last error Z3 reported on this context, if any.
  public var lastError: String? {
    let code = Z3_get_error_code(raw)
    if code == Z3_OK { return nil }
    return String(cString: Z3_get_error_msg(raw, code))
  }
}

/// A Z3 AST that keeps its context alive and its reference count balanced.
public final class Z3Term: @unchecked Sendable {
  let context: Z3Context
  let raw: Z3_ast

  init(_ context: Z3Context, _ raw: Z3_ast?) {
    self.context = context
    self.raw = raw!
    Z3_inc_ref(context.raw, self.raw)
  }

  deinit { Z3_dec_ref(context.raw, raw) }

  public static func > (lhs: Z3Term, rhs: Z3Term) -> Z3Term {
    Z3Term(lhs.context, Z3_mk_gt(lhs.context.raw, lhs.raw, rhs.raw))
  }
  public static func < (lhs: Z3Term, rhs: Z3Term) -> Z3Term {
    Z3Term(lhs.context, Z3_mk_lt(lhs.context.raw, lhs.raw, rhs.raw))
  }
  public static func == (lhs: Z3Term, rhs: Z3Term) -> Z3Term {
    Z3Term(lhs.context, Z3_mk_eq(lhs.context.raw, lhs.raw, rhs.raw))
  }
  public static func && (lhs: Z3Term, rhs: Z3Term) -> Z3Term {
    let args: [Z3_ast?] = [lhs.raw, rhs.raw]
    return Z3Term(lhs.context, Z3_mk_and(lhs.context.raw, 2, args))
  }

  /// Z3's own rendering of the term (SMT-LIB 2 syntax).
  public var description: String { String(cString: Z3_ast_to_string(context.raw, raw)) }
}

/// The answer of a satisfiability query.
public enum Z3Result: Equatable, Sendable {
  case satisfiable, unsatisfiable
  case unknown(reason: String)
}

/// A Z3 solver over one context.
public final class Z3Solver: @unchecked Sendable {
  let context: Z3Context
  let raw: Z3_solver

  public init(_ context: Z3Context) {
    self.context = context
    raw = Z3_mk_solver(context.raw)
    Z3_solver_inc_ref(context.raw, raw)
  }

  deinit { Z3_solver_dec_ref(context.raw, raw) }

  public func assert(_ term: Z3Term) { Z3_solver_assert(context.raw, raw, term.raw) }

  public func check() -> Z3Result {
    switch Z3_solver_check(context.raw, raw) {
    case Z3_L_TRUE: return .satisfiable
    case Z3_L_FALSE: return .unsatisfiable
    default: return .unknown(reason: String(cString: Z3_solver_get_reason_unknown(context.raw, raw)))
    }
  }

  /// The integer value of `term` in the model of the last satisfiable `check()`.
  public func integerValue(of term: Z3Term) -> Int? {
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
