import Foundation
import Testing

@testable import SignInClient

@Suite("Digests, TOTP and SRP")
struct CryptoTests {
  static func hex(_ bytes: [UInt8]) -> String { CognitoSRP.hex(bytes) }

  @Test("SHA-1 and SHA-256 match the FIPS 180 examples")
  func digests() {
    #expect(Self.hex(Digest.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(
      Self.hex(Digest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(Self.hex(Digest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(Self.hex(Digest.sha1(long)) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
  }

  @Test("HMAC matches RFC 4231 and RFC 2202 test case 2")
  func hmac() {
    let key = Array("Jefe".utf8)
    let message = Array("what do ya want for nothing?".utf8)
    #expect(
      Self.hex(Digest.hmac(.sha256, key: key, message: message))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    #expect(Self.hex(Digest.hmac(.sha1, key: key, message: message)) == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
  }

  @Test("HKDF-SHA256 matches RFC 5869 test case 1, and Cognito's one-block derivation")
  func hkdf() {
    func bytes(_ hex: String) -> [UInt8] { CognitoSRP.bytes(hex) }
    let okm = Digest.hkdfSHA256(
      inputKey: [UInt8](repeating: 0x0b, count: 22), salt: bytes("000102030405060708090a0b0c"),
      info: bytes("f0f1f2f3f4f5f6f7f8f9"), count: 42)
    #expect(Self.hex(okm) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    // Cognito's SRP key: HMAC(HMAC(salt: u, S), "Caldera Derived Key" || 0x01), first 16 bytes.
    let u = bytes("00c1d2")
    let s = bytes("0a0b0c0d")
    let prk = Digest.hmac(.sha256, key: u, message: s)
    let expected = Array(Digest.hmac(.sha256, key: prk, message: Array("Caldera Derived Key".utf8) + [1]).prefix(16))
    #expect(Digest.hkdfSHA256(inputKey: s, salt: u, info: Array("Caldera Derived Key".utf8), count: 16) == expected)
  }

  @Test(
    "TOTP matches RFC 6238 (SHA-1, 8 digits)",
    arguments: [(59.0, "94287082"), (1111111109.0, "07081804"), (2000000000.0, "69279037")])
  func totp(time: Double, code: String) {
    // The RFC's key "12345678901234567890" in base32.
    #expect(TOTP.code(secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", time: time, digits: 8) == code)
  }

  @Test("SRP's 3072-bit group and Cognito's timestamp format")
  func srpPieces() {
    #expect(CognitoSRP.N.bitWidth == 3072)
    #expect(CognitoSRP.padHex(0x80) == "0080")
    #expect(CognitoSRP.padHex(0x7f) == "7f")
    #expect(CognitoSRP.padHex(0xabc) == "0abc")
    #expect(CognitoSRP.timestamp(Date(timeIntervalSince1970: 1_788_599_587)) == "Sat Sep 5 09:13:07 UTC 2026")
    let srp = CognitoSRP(random: [UInt8](repeating: 1, count: 128))
    #expect(
      srp.signature(
        poolName: "p", userIdForSRP: "u", password: "pw", srpB: "0", salt: "ab", secretBlock: "AAAA", timestamp: "t")
        == nil,
      "B = 0 must be refused")
    let signature = srp.signature(
      poolName: "p", userIdForSRP: "u", password: "pw", srpB: "def", salt: "abc", secretBlock: "AAAA", timestamp: "t")
    #expect(signature.map { Data(base64Encoded: $0)?.count } == 32)
  }

  /// Pinned before the SRP arithmetic moved to `CognitoSRPMath`: the client's answer must stay
  /// byte-for-byte what it was.
  @Test("the client's PASSWORD_CLAIM_SIGNATURE is pinned for fixed inputs (base64 and moto's text secret block)")
  func pinnedSignature() {
    let srp = CognitoSRP(random: [UInt8](repeating: 7, count: 128))
    #expect(srp.publicValue.prefix(16) == "c3fdcbdae95a1d7b")
    let base64Block = srp.signature(
      poolName: "sim", userIdForSRP: "user", password: "Passw0rd!", srpB: "1f2e3d4c5b6a79", salt: "a1b2c3",
      secretBlock: "AAECAwQF", timestamp: "Sat Sep 5 09:13:07 UTC 2026")
    #expect(base64Block == "ze8af/8e1UKslfFD+P933jZ/F+vJBodEDAN7STx24no=")
    let textBlock = srp.signature(
      poolName: "sim", userIdForSRP: "user", password: "Passw0rd!", srpB: "1f2e3d4c5b6a79", salt: "a1b2c3",
      secretBlock: "moto-session-1", timestamp: "Sat Sep 5 09:13:07 UTC 2026")
    #expect(textBlock == "11GzazsjVQPFjpiOBRwsvIePhxGo2JiZw9Cwrhr7XZg=")
  }
}
