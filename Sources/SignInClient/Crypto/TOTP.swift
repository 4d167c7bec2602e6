import CognitoSRPMath

/// Time-based one-time passwords (RFC 6238, SHA-1, 6 digits, 30-second steps), the codes an
/// authenticator app shows for a TOTP shared secret. The computation is
/// `CognitoSRPMath.OneTimePassword`, shared with the simulated pool.
public enum TOTP {
  /// The code for `secret` (base32, as Cognito's AssociateSoftwareToken returns it) at `time`
  /// (seconds since 1970); nil when the secret is not valid base32.
  public static func code(secret: String, time: Double, digits: Int = 6, period: Double = 30) -> String? {
    OneTimePassword.code(secret: secret, time: time, digits: digits, period: period)
  }

  /// RFC 4648 base32 (upper or lower case, padding optional).
  static func base32Decode(_ text: String) -> [UInt8]? { OneTimePassword.base32Decode(text) }
}
