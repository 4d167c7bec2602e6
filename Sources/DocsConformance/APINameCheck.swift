/// The same API named differently on two pages of the same platform (a translation included):
/// a method spelt with different case (`getSetupURI` / `getSetupUri`), or called with a
/// different first argument label.
enum APINameCheck {
  struct Call {
    let page: DocPage
    let fact: DocFact
    let method: String
    let label: String
    var spelling: String { label.isEmpty ? method : "\(method)(\(label):)" }
  }

  static func findings(_ pages: [(page: DocPage, facts: [DocFact], model: String)]) -> [Finding] {
    var calls: [String: [Call]] = [:]
    for (page, facts, _) in pages {
      for fact in facts {
        guard case .apiCall(let method, let label) = fact.content, let platform = fact.platform else { continue }
        calls["\(platform)|\(method.lowercased())", default: []].append(
          Call(page: page, fact: fact, method: method, label: label))
      }
    }
    var result: [Finding] = []
    for (_, all) in calls.sorted(by: { $0.key < $1.key }) {
      result += variants(all, by: { $0.method })
      for method in Set(all.map(\.method)).sorted() {
        result += variants(all.filter { $0.method == method && !$0.label.isEmpty }, by: { $0.label })
      }
    }
    return result
  }

  /// The variant most pages use is the reference; each page that uses only another is a finding.
  static func variants(_ calls: [Call], by variant: (Call) -> String) -> [Finding] {
    var pagesByVariant: [String: Set<String>] = [:]
    for call in calls { pagesByVariant[variant(call), default: []].insert(call.page.fileName) }
    guard pagesByVariant.count > 1,
      let (reference, referencePages) = pagesByVariant.max(by: { a, b in
        a.value.count != b.value.count ? a.value.count < b.value.count : a.key > b.key
      })
    else { return [] }
    guard let referenceCall = calls.first(where: { variant($0) == reference }) else { return [] }
    var seen = Set<String>()
    var result: [Finding] = []
    for call in calls where variant(call) != reference && !referencePages.contains(call.page.fileName) {
      guard seen.insert("\(call.page.fileName)|\(variant(call))").inserted else { continue }
      let platform = call.fact.platform ?? ""
      result.append(
        Finding(
          kind: .apiNameDiffers, page: call.page.fileName, line: call.fact.line, platform: call.fact.platform,
          pageText: call.fact.text, modelFile: referenceCall.page.fileName, modelLine: referenceCall.fact.line,
          modelText: referenceCall.spelling,
          message: "\(call.spelling) here; the other \(platform) pages call it \(referenceCall.spelling)"))
    }
    return result
  }
}
