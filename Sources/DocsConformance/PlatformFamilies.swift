import Foundation

/// Maps the docs' platform names and code languages to the model's platform families.
enum PlatformFamilies {
  static let families = ["swift", "js", "android", "flutter"]

  /// The single family of a `<!-- Platform: a, b -->` list, or nil when it names several.
  static func family(ofMarkerList list: String) -> String? {
    let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    let found = Set(names.compactMap(family(ofDocsPlatform:)))
    return found.count == 1 ? found.first : nil
  }

  static func family(ofDocsPlatform name: String) -> String? {
    switch name {
    case "swift", "ios": return "swift"
    case "android": return "android"
    case "flutter": return "flutter"
    case "javascript", "js", "react", "react-native", "angular", "vue", "nextjs": return "js"
    default: return nil
    }
  }

  /// The family a fenced code block's language implies.
  static func family(ofFenceLanguage language: String) -> String? {
    switch language.lowercased() {
    case "swift": return "swift"
    case "dart": return "flutter"
    case "java", "kotlin", "kt": return "android"
    case "ts", "typescript", "tsx", "js", "javascript", "jsx": return "js"
    default: return nil
    }
  }

  /// A fence's language as the sample readers name it: swift, kotlin, java, dart or ts (nil for others).
  static func language(ofFence language: String) -> String? {
    switch language.lowercased() {
    case "swift": return "swift"
    case "dart": return "dart"
    case "java": return "java"
    case "kotlin", "kt": return "kotlin"
    case "ts", "typescript", "tsx", "js", "javascript", "jsx": return "ts"
    default: return nil
    }
  }

  /// The language of a scraped page's samples, from its family (Android pages: Kotlin).
  static func language(ofFamily family: String?) -> String? {
    switch family {
    case "swift": return "swift"
    case "flutter": return "dart"
    case "js": return "ts"
    case "android": return "kotlin"
    default: return nil
    }
  }

  /// The family a scraped page's code is written for, from telltale tokens of each language.
  static func family(ofCode text: String) -> String? {
    var scores: [String: Int] = [:]
    let telltales: [(String, String)] = [
      ("safePrint(", "flutter"), ("Future<", "flutter"), ("AuthSignInStep.confirm", "flutter"),
      ("func ", "swift"), ("try await Amplify", "swift"), ("case .", "swift"),
      ("signInStep ===", "js"), ("from 'aws-amplify", "js"), ("async function", "js"),
      ("new AuthSignInOptions", "android"), ("result ->", "android"),
    ]
    for (token, family) in telltales where text.contains(token) {
      scores[family, default: 0] += text.components(separatedBy: token).count - 1
    }
    return scores.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
  }
}
