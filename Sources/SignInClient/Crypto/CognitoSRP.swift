import BigInt
import Foundation

/// Cognito's SRP-6a (the USER_SRP_AUTH and PASSWORD_VERIFIER exchange), as in the
/// reference clients: 3072-bit group, g = 2, SHA-256, and HKDF ("Caldera Derived Key")
/// for the 16-byte key that signs the PASSWORD_VERIFIER answer.
struct CognitoSRP {
  /// RFC 5054's 3072-bit group prime.
  static let N: BigUInt = {
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
  static let g = BigUInt(2)
  static let k = hashNumber(padHex(N) + padHex(g))

  /// The client's secret ephemeral value `a` and public `A = g^a mod N`.
  let smallA: BigUInt
  let largeA: BigUInt

  init(random: [UInt8]) {
    smallA = BigUInt(Data(random)) % CognitoSRP.N
    largeA = CognitoSRP.g.power(smallA, modulus: CognitoSRP.N)
  }

  /// `A` as Cognito expects it in SRP_A (lower-case hex).
  var publicValue: String { String(largeA, radix: 16) }

  /// The PASSWORD_CLAIM_SIGNATURE for the server's SRP_B, SALT and SECRET_BLOCK, or nil when
  /// the server's values are invalid (B ≡ 0 mod N, u = 0, or not hex/base64).
  func signature(
    poolName: String, userIdForSRP: String, password: String, srpB: String, salt: String, secretBlock: String,
    timestamp: String
  ) -> String? {
    let N = CognitoSRP.N
    guard let B = BigUInt(srpB, radix: 16), B % N != 0, let saltValue = BigUInt(salt, radix: 16) else { return nil }
    // Cognito's SECRET_BLOCK is base64 (padding is added if missing); moto sends its session
    // id instead, which is used as text so the exchange can go on there.
    let secret =
      Data(base64Encoded: secretBlock + String(repeating: "=", count: (4 - secretBlock.count % 4) % 4))
      ?? Data(secretBlock.utf8)
    let u = CognitoSRP.hashNumber(CognitoSRP.padHex(largeA) + CognitoSRP.padHex(B))
    guard u != 0 else { return nil }
    let userHash = CognitoSRP.hex(Digest.sha256(Array("\(poolName)\(userIdForSRP):\(password)".utf8)))
    let x = CognitoSRP.hashNumber(CognitoSRP.padHex(saltValue) + userHash)
    let kgx = (CognitoSRP.k * CognitoSRP.g.power(x, modulus: N)) % N
    let base = (B % N + N - kgx) % N
    let S = base.power(smallA + u * x, modulus: N)
    let key = Digest.hkdfSHA256(
      inputKey: CognitoSRP.bytes(CognitoSRP.padHex(S)), salt: CognitoSRP.bytes(CognitoSRP.padHex(u)),
      info: Array("Caldera Derived Key".utf8), count: 16)
    let message = Array(poolName.utf8) + Array(userIdForSRP.utf8) + Array(secret) + Array(timestamp.utf8)
    return Data(Digest.hmac(.sha256, key: key, message: message)).base64EncodedString()
  }

  /// "Tue Sep 5 09:03:07 UTC 2026": Cognito's TIMESTAMP format (day not zero-padded).
  static func timestamp(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let c = calendar.dateComponents([.weekday, .month, .day, .hour, .minute, .second, .year], from: date)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ n: Int?) -> String {
      let s = String(n ?? 0)
      return s.count < 2 ? "0" + s : s
    }
    return
      "\(days[(c.weekday ?? 1) - 1]) \(months[(c.month ?? 1) - 1]) \(c.day ?? 1) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) UTC \(c.year ?? 1970)"
  }

  /// Hex of a non-negative number, padded as the reference clients do: even length, and a
  /// leading 00 when the first digit is 8–f (so it reads as positive).
  static func padHex(_ value: BigUInt) -> String {
    var hex = String(value, radix: 16)
    if hex.count % 2 == 1 { hex = "0" + hex }
    if let first = hex.first, "89abcdef".contains(first) { hex = "00" + hex }
    return hex
  }

  /// SHA-256 of the bytes a hex string spells, read as a big-endian number.
  static func hashNumber(_ hexString: String) -> BigUInt { BigUInt(Data(Digest.sha256(bytes(hexString)))) }

  static func bytes(_ hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var chars = Array(hex)
    if chars.count % 2 == 1 { chars.insert("0", at: 0) }
    for i in stride(from: 0, to: chars.count, by: 2) { result.append(UInt8(String(chars[i...i + 1]), radix: 16) ?? 0) }
    return result
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
  }
}
