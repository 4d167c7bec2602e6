/// The shapes step names take in each language: Swift `case .confirmSignInWithSMSMFACode`,
/// JS `'CONFIRM_SIGN_IN_WITH_SMS_CODE'`, Java/Kotlin `AuthSignInStep.CONFIRM_…`, Dart
/// `AuthSignInStep.confirmSignInWith…`, and backticked or bare names in prose and tables.
enum StepNamePatterns {
  static let camel = #"(?:confirmSignInWith\w+|continueSignInWith\w+|confirmSignUp|resetPassword|done)"#
  static let upper = #"(?:CONFIRM_SIGN_IN_WITH_\w+|CONTINUE_SIGN_IN_WITH_\w+|CONFIRM_SIGN_UP|RESET_PASSWORD|DONE)"#
  /// Names that can only be step names (not API calls such as `confirmSignIn` or `resetPassword`).
  static let distinctive =
    #"\b(confirmSignInWith[A-Za-z]+|continueSignInWith[A-Za-z]+|CONFIRM_SIGN_IN_WITH_[A-Z_]+|CONTINUE_SIGN_IN_WITH_[A-Z_]+|CONFIRM_SIGN_UP|RESET_PASSWORD)\b"#

  /// Step names in a line of code.
  static func inCode(_ text: String) -> [String] {
    var names: [String] = []
    names += Regexes.all(#"AuthSignInStep\.([A-Za-z_]+)"#, in: text).map { $0[0] }
    names += Regexes.all(#"case\s+\.(\#(camel))\b"#, in: text).map { $0[0] }
    names += Regexes.all(#"['"](\#(upper))['"]"#, in: text).map { $0[0] }
    names += Regexes.all(#"(?<![\w.'"])(\#(upper))\b"#, in: text).map { $0[0] }
    return names.filter { !$0.hasSuffix("_") }
  }

  /// Step names in prose: after "next step is", or distinctive names (backticked or bare).
  static func inProse(_ text: String) -> [String] {
    var names = Regexes.all(#"next step is\s+`?([A-Za-z_]+)`?"#, in: text).map { $0[0] }
      .filter { Regexes.matches("^(\(camel)|\(upper))$", $0) }
    names += Regexes.all(distinctive, in: text).map { $0[0] }
    return names
  }
}
