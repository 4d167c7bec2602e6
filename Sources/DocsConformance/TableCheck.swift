/// Next-step tables: a description that contradicts the step (`description-contradicts`),
/// and a table that leaves out a step the model names on that platform (`step-not-listed`).
enum TableCheck {
  /// A wording in a description, and the words the step's id, summary or names must contain for it to fit.
  static let wordings: [(phrase: String, evidence: [String])] = [
    ("new password", ["new"]), ("set a new", ["new"]), ("temporary password", ["temporary", "new"]),
    ("totp", ["totp", "software_token", "authenticator"]), ("sms", ["sms"]), ("email", ["email"]),
    ("custom challenge", ["custom"]),
  ]

  static func findings(_ c: CheckContext) -> [Finding] {
    descriptions(c) + omissions(c)
  }

  static func descriptions(_ c: CheckContext) -> [Finding] {
    var result: [Finding] = []
    for fact in c.facts {
      guard case .tableRow(let name, let description) = fact.content else { continue }
      let steps = c.steps(name, fact)
      guard !steps.isEmpty else { continue }
      let about = steps.map { s -> String in
        let step = c.model.steps[s]
        return ([step.id, step.summary] + step.names.map { "\($0.form)" }).joined(separator: " ").lowercased()
      }.joined(separator: " ")
      let text = description.lowercased()
      guard
        let clash = wordings.first(where: { text.contains($0.phrase) && !$0.evidence.contains(where: about.contains) })
      else { continue }
      let step = c.model.steps[steps[0]]
      result.append(
        c.finding(
          .descriptionContradicts, fact, modelLine: step.line,
          modelText: "\(step.id): \(step.summary)",
          message: "the table describes \(name) with \"\(clash.phrase)\"; the step is: \(step.summary)"))
    }
    return result
  }

  static func omissions(_ c: CheckContext) -> [Finding] {
    var tables: [[DocFact]] = []
    for fact in c.facts {
      guard case .tableRow = fact.content else { continue }
      if let last = tables.last?.last, last.line + 1 == fact.line, last.platform == fact.platform {
        tables[tables.count - 1].append(fact)
      } else {
        tables.append([fact])
      }
    }
    var result: [Finding] = []
    for table in tables where table.count >= 3 {
      guard let platform = table[0].platform else { continue }
      // Only a complete next-step table (one that lists the signed-in step) must list every step.
      guard
        table.contains(where: { f in
          if case .tableRow(let n, _) = f.content { return c.steps(n, f).contains { c.model.steps[$0].isSignedIn } }
          return false
        })
      else { continue }
      let listed = Set(
        table.compactMap { f -> String? in
          if case .tableRow(let n, _) = f.content { return n }
          return nil
        })
      var reported = Set<String>()
      for s in c.model.steps.indices.dropFirst() {
        guard case .name(let name)? = c.model.steps[s].names.first(where: { $0.platform == platform })?.form,
          !listed.contains(name), reported.insert(name).inserted
        else { continue }
        result.append(
          c.finding(
            .stepNotListed, table[0], modelLine: c.model.steps[s].line,
            modelText: "\(name) (\(c.model.steps[s].id)): \(c.model.steps[s].summary)",
            message: "the \(platform) next-step table does not list \(name)"))
      }
    }
    return result
  }
}
