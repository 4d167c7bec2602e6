import Foundation

/// `signin-spec diff --format json`: format `signin-spec-diff`, version 2 (docs/guide/evolution.md documents it; 2: outcomes name a restart's exception and what platforms report instead).
public enum DiffJSONReport {
  public static let version = 2

  public static func render(_ d: ModelDiff, tool: String) -> String {
    func calls(_ t: [TraceCall]?) -> Any {
      guard let t else { return NSNull() }
      return t.map { ["step": $0.step, "response": $0.response, "outcome": $0.outcome] }
    }
    func witness(_ w: [(name: String, value: String)]) -> [String: String] {
      Dictionary(w.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    }
    func group(_ g: BehaviourGroup) -> [String: Any] {
      var o: [String: Any] = [
        "configurations": g.configurations, "classes": g.classes, "witness": witness(g.witness),
      ]
      if g.reason.isEmpty {
        o["step"] = g.step
        o["state"] = g.state
        o["response"] = g.response
        o["oldOutcomes"] = g.oldOutcomes
        o["newOutcomes"] = g.newOutcomes
        o["oldTrace"] = calls(g.oldTrace)
        o["newTrace"] = calls(g.newTrace)
      } else {
        o["reason"] = g.reason
        o["reachedSteps"] = g.reachedSteps
      }
      return o
    }
    let document: [String: Any] = [
      "format": "signin-spec-diff",
      "version": version,
      "tool": tool,
      "old": ["name": d.old.name, "file": d.old.file, "contentHash": d.old.contentHash],
      "new": ["name": d.new.name, "file": d.new.file, "contentHash": d.new.contentHash],
      "platforms": d.platforms,
      "breaking": d.isBreaking,
      "structural": d.structural.map {
        ["kind": $0.kind.rawValue, "category": $0.category, "name": $0.name, "detail": $0.detail, "line": $0.line]
      },
      "missingDefaults": d.missingDefaults,
      "behaviour": [
        "classes": d.classes, "compared": d.compared, "unchanged": d.unchanged, "changed": d.changedCount,
        "added": d.addedCount, "removed": d.removedCount, "complete": !d.limitReached, "maxClasses": d.maxClasses,
      ] as [String: Any],
      "changed": d.changed.map(group),
      "added": d.added.map(group),
      "removed": d.removed.map(group),
      "lostDone": d.lostDone.map(group),
      "stuck": d.compatibility.map {
        [
          "platform": $0.platform, "kind": $0.kind.rawValue, "step": $0.step, "stepName": $0.stepName,
          "values": $0.values, "configurations": $0.configurations, "classes": $0.classes,
          "witness": witness($0.witness), "trace": calls($0.trace),
        ] as [String: Any]
      },
    ]
    let data =
      (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
