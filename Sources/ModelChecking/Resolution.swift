import SignInModel

/// One way a response can be resolved in a state: the rules that fired (a step rule,
/// then any route rules it led to), their combined effect, and the final outcome.
struct Resolution {
  var valuation: [Int]
  var outcome: Outcome
  var ruleLines: [Int]
  var failsAuthentication: Bool
}

/// A place where the number of matching rules was not exactly one.
struct Ambiguity {
  /// "response 'wrongCode' at step 'X'" or "route 'afterFirstFactor'".
  var place: String
  var matchingLines: [Int]
}

extension SignInModel {
  /// Applies `rules` to `valuation`, following routes, and returns every resolution;
  /// places where zero or several rules matched are appended to `ambiguities`.
  func resolve(
    _ rules: [Rule], place: @autoclosure () -> String, valuation: [Int], ambiguities: inout [Ambiguity]
  ) throws(UnassignedVariable) -> [Resolution] {
    var matching: [Rule] = []
    for rule in rules where try rule.guardExpr.holds(valuation) { matching.append(rule) }
    if matching.count != 1 {
      ambiguities.append(Ambiguity(place: place(), matchingLines: matching.map(\.line)))
    }
    var result: [Resolution] = []
    for rule in matching {
      var next = valuation
      for (variable, value) in rule.effects { next[variable] = try value.evaluate(valuation) }
      if case .route(let r) = rule.outcome {
        let route = routes[r]
        for sub in try resolve(route.rules, place: "route '\(route.name)'", valuation: next, ambiguities: &ambiguities) {
          result.append(Resolution(
            valuation: sub.valuation, outcome: sub.outcome, ruleLines: [rule.line] + sub.ruleLines,
            failsAuthentication: rule.failsAuthentication || sub.failsAuthentication))
        }
      } else {
        result.append(Resolution(
          valuation: next, outcome: rule.outcome, ruleLines: [rule.line], failsAuthentication: rule.failsAuthentication))
      }
    }
    return result
  }
}
