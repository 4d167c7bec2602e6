/// An untyped expression as written in a model file, before names are resolved.
indirect enum ExprSyntax: Sendable {
  case integer(Int, at: Int)
  case boolean(Bool, at: Int)
  case name(String, at: Int)
  case call(String, argument: String, at: Int)
  case unary(String, ExprSyntax, at: Int)
  case binary(String, ExprSyntax, ExprSyntax, at: Int)
  case member(ExprSyntax, [(String, Int)], at: Int)

  var offset: Int {
    switch self {
    case .integer(_, let at), .boolean(_, let at), .name(_, let at), .call(_, _, let at),
      .unary(_, _, let at), .binary(_, _, _, let at), .member(_, _, let at):
      return at
    }
  }
}

/// A syntax or type error inside one expression string, at a character offset.
public struct ExpressionError: Error, Sendable, Equatable {
  public let message: String
  public let offset: Int
}

/// Parses the guard language:
///
///     expr    := or ('=>' expr)?
///     or      := and (('||' | 'or') and)*
///     and     := unary (('&&' | 'and') unary)*
///     unary   := ('!' | 'not') unary | compare
///     compare := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum | 'in' '[' name (',' name)* ']')?
///     sum     := atom (('+' | '-') atom)*
///     atom    := integer | '-' integer | 'true' | 'false' | name | name '(' name ')' | '(' expr ')'
///     name    := [A-Za-z_][A-Za-z0-9_.]*
///
/// Nesting is bounded by `ModelLimits.maxExpressionDepth` (parentheses, `!`, and each operator of
/// a chain such as `a + b + c` count one level), so no input can exhaust the stack; integers must
/// lie in `ModelLimits.integers`. A `-` before an integer where a value is expected makes a
/// negative literal (`flow.x != -1`, `flow.x - -1`), for domains with negative values; a name
/// is negated by subtraction (`0 - flow.x`).
struct ExprParser {
  private enum Token: Equatable {
    /// The digits of an integer literal, range-checked by `parseAtom` once its sign is known.
    case integer(String)
    case word(String)
    case symbol(String)
    case end
  }

  private var tokens: [(Token, Int)] = []
  private var position = 0
  private var depth = 0

  /// Enters one level of nesting at `at`; fails past the limit.
  private mutating func enter(_ at: Int) throws(ExpressionError) {
    depth += 1
    if depth > ModelLimits.maxExpressionDepth {
      throw ExpressionError(
        message: "the expression nests deeper than \(ModelLimits.maxExpressionDepth) levels here "
          + "(parentheses, '!' and chained operators each count one), the limit; "
          + "split it into named definitions", offset: at)
    }
  }

  static func parse(_ text: String) throws(ExpressionError) -> ExprSyntax {
    var parser = ExprParser()
    try parser.tokenize(Array(text))
    let result = try parser.parseImplies()
    if case (let token, let at) = parser.tokens[parser.position], token != .end {
      throw ExpressionError(message: "unexpected '\(parser.describe(token))' after a complete expression", offset: at)
    }
    return result
  }

  private mutating func tokenize(_ chars: [Character]) throws(ExpressionError) {
    var i = 0
    let symbols = ["=>", "==", "!=", "<=", ">=", "&&", "||", "!", "<", ">", "+", "-", "(", ")", "[", "]", ","]
      .map { ($0, Array($0)) }
    outer: while i < chars.count {
      let c = chars[i]
      if c.isWhitespace {
        i += 1
        continue
      }
      if c.isASCII && c.isNumber {
        let start = i
        while i < chars.count, chars[i].isASCII && chars[i].isNumber { i += 1 }
        tokens.append((.integer(String(chars[start..<i])), start))
        continue
      }
      if c.isLetter || c == "_" {
        let start = i
        while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "." { i += 1 }
        tokens.append((.word(String(chars[start..<i])), start))
        continue
      }
      for (s, sc) in symbols where i + sc.count <= chars.count {
        if sc.count == 1 ? chars[i] == sc[0] : (chars[i] == sc[0] && chars[i + 1] == sc[1]) {
          tokens.append((.symbol(s), i))
          i += sc.count
          continue outer
        }
      }
      throw ExpressionError(message: "unexpected character '\(c)'", offset: i)
    }
    tokens.append((.end, chars.count))
  }

  private func describe(_ token: Token) -> String {
    switch token {
    case .integer(let digits): return digits
    case .word(let w): return w
    case .symbol(let s): return s
    case .end: return "end of expression"
    }
  }

  private var current: Token { tokens[position].0 }
  private var offset: Int { tokens[position].1 }

  private mutating func accept(_ symbols: String...) -> String? {
    for s in symbols {
      if current == .symbol(s) || current == .word(s) {
        position += 1
        return s
      }
    }
    return nil
  }

  private mutating func expect(_ symbol: String) throws(ExpressionError) {
    guard accept(symbol) != nil else {
      throw ExpressionError(message: "expected '\(symbol)' but found '\(describe(current))'", offset: offset)
    }
  }

  private mutating func parseImplies() throws(ExpressionError) -> ExprSyntax {
    try enter(offset)
    defer { depth -= 1 }
    let left = try parseOr()
    let at = offset
    if accept("=>") != nil { return .binary("=>", left, try parseImplies(), at: at) }
    return left
  }

  private mutating func parseOr() throws(ExpressionError) -> ExprSyntax {
    let base = depth
    defer { depth = base }
    var left = try parseAnd()
    while true {
      let at = offset
      guard accept("||", "or") != nil else { return left }
      try enter(at)
      left = .binary("||", left, try parseAnd(), at: at)
    }
  }

  private mutating func parseAnd() throws(ExpressionError) -> ExprSyntax {
    let base = depth
    defer { depth = base }
    var left = try parseUnary()
    while true {
      let at = offset
      guard accept("&&", "and") != nil else { return left }
      try enter(at)
      left = .binary("&&", left, try parseUnary(), at: at)
    }
  }

  private mutating func parseUnary() throws(ExpressionError) -> ExprSyntax {
    let at = offset
    if accept("!", "not") != nil {
      try enter(at)
      defer { depth -= 1 }
      return .unary("!", try parseUnary(), at: at)
    }
    return try parseCompare()
  }

  private mutating func parseCompare() throws(ExpressionError) -> ExprSyntax {
    let left = try parseSum()
    let at = offset
    if let op = accept("==", "!=", "<=", ">=", "<", ">") {
      return .binary(op, left, try parseSum(), at: at)
    }
    if accept("in") != nil {
      try expect("[")
      var names: [(String, Int)] = []
      repeat {
        guard case .word(let w) = current else {
          throw ExpressionError(
            message: "expected a value name in the list but found '\(describe(current))'", offset: offset)
        }
        names.append((w, offset))
        position += 1
      } while accept(",") != nil
      try expect("]")
      return .member(left, names, at: at)
    }
    return left
  }

  private mutating func parseSum() throws(ExpressionError) -> ExprSyntax {
    let base = depth
    defer { depth = base }
    var left = try parseAtom()
    while true {
      let at = offset
      guard let op = accept("+", "-") else { return left }
      try enter(at)
      left = .binary(op, left, try parseAtom(), at: at)
    }
  }

  /// The value of an integer literal (`-` and its digits when `negative`), which must lie in
  /// `ModelLimits.integers`: the lowest, -2147483648, is written only with its sign.
  private static func literal(_ digits: String, negative: Bool, at: Int) throws(ExpressionError) -> Int {
    let text = (negative ? "-" : "") + digits
    guard let value = Int(text), ModelLimits.integers.contains(value) else {
      let shown = text.count > 30 ? String(text.prefix(30)) + "…" : text
      throw ExpressionError(
        message: "the integer \(shown) is outside "
          + "\(ModelLimits.integers.lowerBound)...\(ModelLimits.integers.upperBound), the range of integers "
          + "in a model", offset: at)
    }
    return value
  }

  private mutating func parseAtom() throws(ExpressionError) -> ExprSyntax {
    let at = offset
    switch current {
    case .integer(let digits):
      position += 1
      return .integer(try Self.literal(digits, negative: false, at: at), at: at)
    case .word("true"):
      position += 1
      return .boolean(true, at: at)
    case .word("false"):
      position += 1
      return .boolean(false, at: at)
    case .word(let w) where !["and", "or", "not", "in"].contains(w):
      position += 1
      if accept("(") != nil {
        guard case .word(let argument) = current else {
          throw ExpressionError(
            message: "expected a name inside \(w)(…) but found '\(describe(current))'", offset: offset)
        }
        position += 1
        try expect(")")
        return .call(w, argument: argument, at: at)
      }
      return .name(w, at: at)
    case .symbol("-"):
      // `.end` closes the tokens, so a `-` always has a next token.
      let (next, nextAt) = tokens[position + 1]
      guard case .integer(let digits) = next else {
        throw ExpressionError(
          message: "expected an integer after '-' (a negative literal; write 0 - x to negate a name) "
            + "but found '\(describe(next))'", offset: nextAt)
      }
      position += 2
      return .integer(try Self.literal(digits, negative: true, at: at), at: at)
    case .symbol("("):
      position += 1
      let inner = try parseImplies()
      try expect(")")
      return inner
    default:
      throw ExpressionError(message: "expected a value, a name or '(' but found '\(describe(current))'", offset: at)
    }
  }
}
