/// The pool's configuration as its rules read it: each variable the rules ask for, read from
/// the configuration's texts once (again whenever the pool changes one: a completed TOTP or
/// email setup), so that answering a request looks nothing up by name.
struct PoolSettings {
  /// `pool.mfa`: "off", "optional", "required", or "" where the model has no such variable.
  var mfa: String
  var poolSms: Bool
  var poolTotp: Bool
  var poolEmail: Bool
  /// Each MFA type is active (A.3): the pool has it, the user has it, and it is enabled or
  /// MFA is required.
  var smsActive: Bool
  var totpActive: Bool
  var emailActive: Bool
  /// `user.preferred`: "sms", "totp", "email" or "".
  var preferred: String
  /// `user.exists` is not "false".
  var userExists: Bool
  var preventUserExistenceErrors: Bool
  /// `user.passwordSet` is not "false" (a model without the variable has a password).
  var passwordSet: Bool
  var smsOTP: Bool
  var emailOTP: Bool
  var webAuthn: Bool
  /// `pool.customMfa`: "none" where absent.
  var customMfa: String
  /// `pool.customRounds`, 1 where absent or not a number.
  var customRounds: Int
  /// `pool.deviceTracking`: "off" where absent.
  var deviceTracking: String
  var deviceSuppressesMfa: Bool

  init(_ config: [String: String]) {
    func flag(_ name: String) -> Bool { config[name] == "true" }
    mfa = config["pool.mfa"] ?? ""
    let required = mfa == "required"
    poolSms = flag("pool.sms")
    poolTotp = flag("pool.totp")
    poolEmail = flag("pool.email")
    let userPhone = flag("user.phone")
    let userEmail = flag("user.email")
    smsActive = poolSms && userPhone && (flag("user.smsEnabled") || required)
    totpActive = poolTotp && flag("user.totpRegistered") && (flag("user.totpEnabled") || required)
    emailActive = poolEmail && userEmail && (flag("user.emailEnabled") || required)
    preferred = config["user.preferred"] ?? ""
    userExists = config["user.exists"] != "false"
    preventUserExistenceErrors = flag("pool.preventUserExistenceErrors")
    passwordSet = config["user.passwordSet"].map { $0 == "true" } ?? true
    smsOTP = flag("pool.allowSmsOTP") && userPhone
    emailOTP = flag("pool.allowEmailOTP") && userEmail
    webAuthn = flag("pool.allowWebAuthn") && flag("user.passkey")
    customMfa = config["pool.customMfa"] ?? "none"
    customRounds = Int(config["pool.customRounds"] ?? "") ?? 1
    deviceTracking = config["pool.deviceTracking"] ?? "off"
    deviceSuppressesMfa = flag("pool.deviceSuppressesMfa")
  }
}
