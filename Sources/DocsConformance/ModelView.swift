import SignInModel

/// Lookups over a loaded model that the comparisons need: the steps a platform's name
/// denotes, the closest name, the step an exception stands for, a heading's step.
struct ModelView {
  let model: SignInModel

  /// Steps (indices) that `name` denotes on `platform` (on any platform when nil).
  func steps(named name: String, platform: String?) -> [Int] {
    model.steps.indices.filter { s in
      model.steps[s].names.contains { n in
        (platform == nil || n.platform == platform) && n.form == .name(name)
      }
    }
  }

  /// The step ids before any `.variant` suffix: steps that share a platform name.
  func baseId(_ step: Int) -> String {
    String(model.steps[step].id.split(separator: ".").first ?? "")
  }

  func names(on platform: String) -> [String] {
    var seen: [String] = []
    for step in model.steps {
      for n in step.names where n.platform == platform {
        if case .name(let s) = n.form, !seen.contains(s) { seen.append(s) }
      }
    }
    return seen
  }

  /// Steps a platform throws as an exception instead of reporting them, with the exception.
  func thrown(on platform: String, step: Int) -> String? {
    for n in model.steps[step].names where n.platform == platform {
      if case .error(let e) = n.form { return e }
    }
    return nil
  }

  /// The step some platform throws as `exception`.
  func step(thrownAs exception: String) -> Int? {
    model.steps.indices.first { s in model.steps[s].names.contains { $0.form == .error(exception) } }
  }

  /// The closest name on `platform` (edit distance, case-insensitive).
  func closest(to name: String, on platform: String) -> String? {
    names(on: platform).min { a, b in
      let da = EditDistance.between(a.lowercased(), name.lowercased())
      let db = EditDistance.between(b.lowercased(), name.lowercased())
      return da != db ? da < db : a < b
    }
  }

  /// The step a section heading is about ("Confirm sign-in with new password"), when exactly one fits.
  func step(forHeading heading: String) -> Int? {
    let h = Self.normalized(heading)
    guard h.count >= 6 else { return nil }
    var found = Set<String>()
    var first: Int?
    for s in model.steps.indices.dropFirst() {
      let candidates =
        [model.steps[s].id]
        + model.steps[s].names.compactMap { n -> String? in
          if case .name(let x) = n.form { return x }
          return nil
        }
      if candidates.contains(where: { Self.normalized($0).hasPrefix(h) }) {
        if found.insert(baseId(s)).inserted, first == nil { first = s }
      }
    }
    return found.count == 1 ? first : nil
  }

  static func normalized(_ text: String) -> String {
    String(text.lowercased().filter { $0.isLetter || $0.isNumber })
  }
}

/// Levenshtein distance, for "did you mean" suggestions.
enum EditDistance {
  static func between(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[b.count]
  }
}
