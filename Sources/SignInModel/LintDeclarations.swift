/// A named expression of the model (`definitions:`), as written; uses are expanded when loading.
public struct Definition: Sendable, Equatable {
  public let name: String
  public let text: String
  public let line: Int
  /// How many other expressions of the model (guards, offers, options, constraints, effects,
  /// definitions) name it. `canSignIn` and `mfaRequired` are read by the invariants as well.
  public let uses: Int

  public init(name: String, text: String, line: Int, uses: Int) {
    self.name = name
    self.text = text
    self.line = line
    self.uses = uses
  }
}

extension Definition {
  /// The names in an expression's text (variables, definitions, values), in order: what
  /// counts a definition's uses when loading and what `lint` reads to see which definitions
  /// an expression names.
  public static func names(in text: String) -> [String] {
    var words: [String] = []
    var current = ""
    for c in text {
      if c.isLetter || c.isNumber || c == "_" || c == "." {
        current.append(c)
      } else {
        if !current.isEmpty { words.append(current) }
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}

/// A lint warning the model means (`lint:` section): the rule, the warning's target, and why.
public struct LintAcknowledgement: Sendable, Equatable {
  public let rule: String
  public let target: String
  public let reason: String
  public let line: Int

  public init(rule: String, target: String, reason: String, line: Int) {
    self.rule = rule
    self.target = target
    self.reason = reason
    self.line = line
  }

  /// The rule names `signin-spec lint` reports; a `lint:` entry must name one of them.
  public static let knownRules = [
    "valueNeverCompared", "optionNeverSelected", "missingPlatformName", "stepNeverTargeted", "stepUnreachable",
    "responseAcceptedNowhere", "responseUnreachable", "definitionUnused", "routeUnused", "excludedConfigurations",
    "notChecked", "classLimit", "policySharesDefinition",
  ]
}

/// Where the declarations without a line of their own are written: `response:NAME`,
/// `option:SET.NAME`, `route:NAME`, `constraint:N` (0-based) → line in the model file.
public struct DeclarationLines: Sendable, Equatable {
  public var lines: [String: Int]

  public init(lines: [String: Int] = [:]) { self.lines = lines }

  public subscript(_ key: String) -> Int { lines[key] ?? 0 }
}
