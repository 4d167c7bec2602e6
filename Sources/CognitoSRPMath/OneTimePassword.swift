/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP, HMAC-SHA1): the codes an
/// authenticator app shows for a TOTP shared secret. Shared by the reference client (which
/// computes codes) and the simulated pool (which checks them).
package enum OneTimePassword {
  /// The code for `secret` (base32, as Cognito's AssociateSoftwareToken returns it) at `time`
  /// (seconds since 1970); nil when the secret is not valid base32.
  package static func code(secret: String, time: Double, digits: Int = 6, period: Double = 30) -> String? {
    guard let key = base32Decode(secret) else { return nil }
    return code(key: key, counter: UInt64(time / period), digits: digits)
  }

  /// HOTP (RFC 4226): the `digits`-digit code for `key` at `counter`.
  package static func code(key: [UInt8], counter: UInt64, digits: Int = 6) -> String {
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

  /// The time step (counter) at which `code` is right for `secret` at `time`, allowing
  /// `tolerance` steps either side (RFC 6238 §5.2); nil when it is right at none of them.
  package static func matchingStep(
    _ code: String, secret: String, time: Double, tolerance: Int = 1, period: Double = 30
  ) -> UInt64? {
    guard let key = base32Decode(secret), code.count == 6 else { return nil }
    let now = Int64(time / period)
    for delta in -Int64(tolerance)...Int64(tolerance) where now + delta >= 0 {
      let step = UInt64(now + delta)
      if Self.code(key: key, counter: step) == code { return step }
    }
    return nil
  }

  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

  /// RFC 4648 base32 (upper or lower case, padding optional).
  package static func base32Decode(_ text: String) -> [UInt8]? {
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

  /// RFC 4648 base32, upper case, without padding (as Cognito's secrets are written).
  package static func base32Encode(_ bytes: [UInt8]) -> String {
    var bits = 0
    var value = 0
    var result = ""
    for byte in bytes {
      value = (value << 8) | Int(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        result.append(alphabet[(value >> bits) & 0x1f])
      }
      value &= (1 << bits) - 1
    }
    if bits > 0 { result.append(alphabet[(value << (5 - bits)) & 0x1f]) }
    return result
  }
}
