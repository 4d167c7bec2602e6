import Foundation
import SignInModel

/// A set the page lists for a selection step (MFA types to select or set up, first factors)
/// that differs from the options the model can offer there (its `offers:` guards).
enum SetCheck {
  static let aliases = ["SMS_MFA": "SMS", "SOFTWARE_TOKEN_MFA": "TOTP", "EMAIL_OTP": "EMAIL", "WEBAUTHN": "WEB_AUTHN"]

  static func findings(_ c: CheckContext) -> [Finding] {
    var result: [Finding] = []
    for fact in c.facts {
      guard case .set(let stepName, let members) = fact.content else { continue }
      let steps = c.steps(stepName, fact).filter { c.model.steps[$0].offers != nil }
      guard let step = steps.first, let offers = c.model.steps[step].offers else { continue }
      let options = c.model.optionSets[offers.optionSet].options
      let offered = offers.conditions.filter { $0.when != .constant(0) }.map { options[$0.option].name }
      let extra = members.filter { m in !offered.contains { matches(m, $0) } }
      let missing = offered.filter { o in !members.contains { matches($0, o) } }
      guard !extra.isEmpty || !missing.isEmpty else { continue }
      var parts: [String] = []
      if !extra.isEmpty { parts.append("the page adds " + extra.joined(separator: ", ")) }
      if !missing.isEmpty { parts.append("leaves out " + missing.joined(separator: ", ")) }
      result.append(
        c.finding(
          fact.sample ? .sampleSetDiffers : .setDiffers, fact, modelLine: c.model.steps[step].line,
          modelText: "\(c.model.steps[step].id) offers \(offered.joined(separator: ", "))",
          message: (fact.sample ? "the set literal for \(stepName)" : "the set listed for \(stepName)")
            + " differs from the model's offers: " + parts.joined(separator: "; ")))
    }
    return result
  }

  /// A page member denotes an option: same name (any case), an alias, or a prefix before `_`.
  static func matches(_ member: String, _ option: String) -> Bool {
    let m = member.uppercased().replacingOccurrences(of: " ", with: "_")
    let o = option.uppercased()
    if m == o || aliases[m] == o { return true }
    return o.hasPrefix(m + "_") || m.hasPrefix(o + "_") && aliases[m] == nil
  }
}
