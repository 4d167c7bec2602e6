/// Time-based one-time passwords (RFC 6238, SHA-1, 6 digits, 30-second steps), the codes an
/// authenticator app shows for a TOTP shared secret.
public enum TOTP {
  /// The code for `secret` (base32, as Cognito's AssociateSoftwareToken returns it) at `time`
  /// (seconds since 1970); nil when the secret is not valid base32.
  public static func code(secret: String, time: Double, digits: Int = 6, period: Double = 30) -> String? {
    guard let key = base32Decode(secret) else { return nil }
    let counter = UInt64(time / period)
    let message = (0..<8).reversed().map { UInt8(truncatingIfNeeded: counter >> (UInt64($0) * 8)) }
    let mac = Digest.hmac(.sha1, key: key, message: message)
    let offset = Int(mac[19] & 0x0f)
    let binary =
      (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
      | UInt32(mac[offset + 3])
    var modulus: UInt32 = 1
    for _ in 0..<digits { modulus *= 10 }
    let value = String(binary % modulus)
    return String(repeating: "0", count: digits - value.count) + value
  }

  /// RFC 4648 base32 (upper or lower case, padding optional).
  static func base32Decode(_ text: String) -> [UInt8]? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    var bits = 0
    var value = 0
    var result: [UInt8] = []
    for c in text.uppercased() where c != "=" && c != " " {
      guard let index = alphabet.firstIndex(of: c) else { return nil }
      value = (value << 5) | index
      bits += 5
      if bits >= 8 {
        bits -= 8
        result.append(UInt8((value >> bits) & 0xff))
      }
    }
    return result
  }
}
