import BigInt
import Foundation

/// The arithmetic both sides of Cognito's SRP-6a share (USER_SRP_AUTH and PASSWORD_VERIFIER),
/// as in the reference clients: RFC 5054's 3072-bit group, g = 2, SHA-256, the numbers'
/// padded hex, and HKDF ("Caldera Derived Key") for the 16-byte key that signs the
/// PASSWORD_VERIFIER answer. Pure functions; the ephemeral secrets belong to the callers.
package enum SRPMath {
  /// RFC 5054's 3072-bit group prime.
  package static let N: BigUInt = {
    let hex =
      "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
      + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
      + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
      + "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
      + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
      + "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
      + "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
      + "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF"
    guard let n = BigUInt(hex, radix: 16) else { preconditionFailure("RFC 5054's 3072-bit N is not hex") }
    return n
  }()
  package static let g = BigUInt(2)
  /// The multiplier k = H(N | g).
  package static let k = hashNumber(padHex(N) + padHex(g))

  /// The private key x = H(salt | H(poolName | userIdForSRP | ":" | password)), where
  /// `poolName` is the part of the pool id after "_".
  package static func privateKey(salt: BigUInt, poolName: String, userIdForSRP: String, password: String) -> BigUInt {
    let userHash = hex(Digest.sha256(Array("\(poolName)\(userIdForSRP):\(password)".utf8)))
    return hashNumber(padHex(salt) + userHash)
  }

  /// The verifier v = g^x mod N for `privateKey(salt:poolName:userIdForSRP:password:)`: what a
  /// pool keeps for a user's password, and what a client sends in ConfirmDevice for a device's
  /// random password (device group key in place of the pool name, device key in place of the
  /// user id).
  package static func verifier(salt: BigUInt, poolName: String, userIdForSRP: String, password: String) -> BigUInt {
    modPow(g, privateKey(salt: salt, poolName: poolName, userIdForSRP: userIdForSRP, password: password), N)
  }

  /// The scrambling parameter u = H(A | B).
  package static func scrambler(_ A: BigUInt, _ B: BigUInt) -> BigUInt { hashNumber(padHex(A) + padHex(B)) }

  /// The 16-byte key that signs the password claim, from the shared secret S and u.
  package static func claimKey(S: BigUInt, u: BigUInt) -> [UInt8] {
    Digest.hkdfSHA256(
      inputKey: bytes(padHex(S)), salt: bytes(padHex(u)), info: Array("Caldera Derived Key".utf8), count: 16)
  }

  /// The bytes a SECRET_BLOCK stands for: Cognito's is base64 (padding is added if missing);
  /// moto sends its session id instead, which is used as text so the exchange can go on there.
  package static func secretBlockBytes(_ secretBlock: String) -> [UInt8] {
    Array(
      Data(base64Encoded: secretBlock + String(repeating: "=", count: (4 - secretBlock.count % 4) % 4))
        ?? Data(secretBlock.utf8))
  }

  /// PASSWORD_CLAIM_SIGNATURE: base64 of HMAC-SHA256(key, poolName | userIdForSRP | secret block
  /// | timestamp).
  package static func claimSignature(
    key: [UInt8], poolName: String, userIdForSRP: String, secretBlock: [UInt8], timestamp: String
  ) -> String {
    let message = Array(poolName.utf8) + Array(userIdForSRP.utf8) + secretBlock + Array(timestamp.utf8)
    return Data(Digest.hmac(.sha256, key: key, message: message)).base64EncodedString()
  }

  /// "Tue Sep 5 09:03:07 UTC 2026": Cognito's TIMESTAMP format, "EEE MMM d HH:mm:ss UTC yyyy"
  /// in English and UTC (day not zero-padded).
  package static func timestamp(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let c = calendar.dateComponents([.weekday, .month, .day, .hour, .minute, .second, .year], from: date)
    func two(_ n: Int?) -> String {
      let s = String(n ?? 0)
      return s.count < 2 ? "0" + s : s
    }
    return
      "\(days[(c.weekday ?? 1) - 1]) \(months[(c.month ?? 1) - 1]) \(c.day ?? 1) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) UTC \(c.year ?? 1970)"
  }

  /// Whether `text` has the shape of Cognito's TIMESTAMP (see `timestamp(_:)`): a weekday and a
  /// month by their English abbreviations, day 1–31 not zero-padded, a two-digit time, "UTC"
  /// and a four-digit year. The calendar is not checked (the day need not fit the weekday).
  package static func isTimestamp(_ text: String) -> Bool {
    let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 6, days.contains(parts[0]), months.contains(parts[1]), parts[4] == "UTC",
      let day = Int(parts[2]), (1...31).contains(day), String(day) == parts[2],
      parts[5].count == 4, parts[5].allSatisfy({ $0.isASCII && $0.isNumber })
    else { return false }
    let time = parts[3].split(separator: ":", omittingEmptySubsequences: false)
    let limits = [23, 59, 60]
    return time.count == 3
      && zip(time, limits).allSatisfy { field, limit in
        field.count == 2 && field.allSatisfy { $0.isASCII && $0.isNumber } && Int(field).map { $0 <= limit } == true
      }
  }

  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// Hex of a non-negative number, padded as the reference clients do: even length, and a
  /// leading 00 when the first digit is 8–f (so it reads as positive).
  package static func padHex(_ value: BigUInt) -> String {
    var hex = String(value, radix: 16)
    if hex.count % 2 == 1 { hex = "0" + hex }
    if let first = hex.first, "89abcdef".contains(first) { hex = "00" + hex }
    return hex
  }

  /// SHA-256 of the bytes a hex string spells, read as a big-endian number.
  package static func hashNumber(_ hexString: String) -> BigUInt { BigUInt(Data(Digest.sha256(bytes(hexString)))) }

  package static func bytes(_ hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var chars = Array(hex)
    if chars.count % 2 == 1 { chars.insert("0", at: 0) }
    for i in stride(from: 0, to: chars.count, by: 2) { result.append(UInt8(String(chars[i...i + 1]), radix: 16) ?? 0) }
    return result
  }

  package static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
  }
}
