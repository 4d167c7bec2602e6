import Yams

/// The per-platform pass: `platforms:` on rules and the top-level `clientCalls:`.
extension ModelBuilder {
  /// `platforms: {PLATFORM: {error: NAME} | {result: TEXT}}`; each platform must be declared.
  func platformOutcomes(_ node: Node?) -> [PlatformOutcome] {
    guard let node else { return [] }
    var outcomes: [PlatformOutcome] = []
    for item in pairs(node, "platforms") {
      guard platforms.contains(item.key) else {
        report(
          item.keyNode,
          "unknown platform '\(item.key)'" + suggestion(item.key, platforms)
            + "; the model's platforms: " + platforms.joined(separator: ", "))
        continue
      }
      guard let form = platformForm(item.value, "the entry of '\(item.key)'") else { continue }
      outcomes.append(PlatformOutcome(platform: item.key, form: form))
    }
    return outcomes
  }

  /// `{error: NAME}` or `{result: signedOut}`.
  func platformForm(_ node: Node, _ what: String) -> PlatformOutcome.Form? {
    let fields = pairs(node, what)
    guard fields.count == 1, let only = fields.first, ["error", "result"].contains(only.key) else {
      report(node, "\(what) is {error: NAME} or {result: signedOut}")
      return nil
    }
    guard let text = scalar(only.value, only.key) else { return nil }
    if only.key == "error" { return .error(text) }
    guard text == "signedOut" else {
      report(only.value, "the only result is signedOut, not '\(text)'")
      return nil
    }
    return .signedOut
  }

  /// `clientCalls: {signIn|signOut: {summary?, inFlow?, signedIn?}}`.
  func readClientCalls(_ top: [Field]) -> [ClientCall] {
    guard let node = value(top, "clientCalls") else { return [] }
    var calls: [ClientCall] = []
    for item in pairs(node, "clientCalls") {
      guard ClientCall.names.contains(item.key) else {
        report(
          item.keyNode,
          "clientCalls describes signIn or signOut, not '\(item.key)'"
            + suggestion(item.key, ClientCall.names))
        continue
      }
      let fields = pairs(item.value, "client call '\(item.key)'")
      checkKeys(fields, allowed: ["summary", "inFlow", "signedIn"], "client call '\(item.key)'")
      calls.append(
        ClientCall(
          name: item.key, inFlow: value(fields, "inFlow").flatMap { situation($0, "inFlow") },
          signedIn: value(fields, "signedIn").flatMap { situation($0, "signedIn") }, line: line(item.keyNode)))
    }
    return calls
  }

  /// `{effect: cancel|keep|end, error: NAME | result: signedOut, platforms: {...}, source: TEXT}`.
  func situation(_ node: Node, _ what: String) -> ClientCall.Situation? {
    let fields = pairs(node, what)
    checkKeys(fields, allowed: ["effect", "error", "result", "platforms", "source"], what)
    guard let effectNode = value(fields, "effect") else {
      report(node, "\(what) needs 'effect:' (cancel, keep or end)")
      return nil
    }
    guard let text = scalar(effectNode, "effect") else { return nil }
    guard let effect = ClientCall.Effect(rawValue: text) else {
      report(
        effectNode,
        "effect is cancel, keep or end, not '\(text)'"
          + suggestion(text, ClientCall.Effect.allCases.map(\.rawValue)))
      return nil
    }
    let error = value(fields, "error").flatMap { scalar($0, "error") }
    let resultNode = value(fields, "result")
    if error != nil && resultNode != nil { report(node, "\(what) gives either 'error:' or 'result:', not both") }
    var neutral: PlatformOutcome.Form? = error.map { .error($0) }
    if let resultNode, let text = scalar(resultNode, "result") {
      if text == "signedOut" {
        neutral = .signedOut
      } else {
        report(resultNode, "the only result is signedOut, not '\(text)'")
      }
    }
    return ClientCall.Situation(
      effect: effect, report: neutral, platforms: platformOutcomes(value(fields, "platforms")),
      source: value(fields, "source").flatMap { scalar($0, "source") }, line: line(node))
  }
}
