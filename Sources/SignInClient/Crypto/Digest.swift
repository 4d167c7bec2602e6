/// SHA-1 and SHA-256 (FIPS 180-4) and HMAC (RFC 2104): what TOTP (RFC 6238) and Cognito's
/// SRP need, without a crypto package. Tested against the standard vectors.
enum Digest {
  static func sha1(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    for chunk in padded(message) {
      var w = [UInt32](repeating: 0, count: 80)
      for i in 0..<16 { w[i] = word(chunk, i) }
      for i in 16..<80 { w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
      var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
      for i in 0..<80 {
        let (f, k): (UInt32, UInt32)
        switch i {
        case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
        case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
        case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
        default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
        }
        let t = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
        (e, d, c, b, a) = (d, c, rotl(b, 30), a, t)
      }
      h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
    }
    return h.flatMap(bytes)
  }

  static func sha256(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [
      0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    for chunk in padded(message) {
      var w = [UInt32](repeating: 0, count: 64)
      for i in 0..<16 { w[i] = word(chunk, i) }
      for i in 16..<64 {
        let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
        let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
      }
      var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
      for i in 0..<64 {
        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
        let ch = (e & f) ^ (~e & g)
        let t1 = hh &+ s1 &+ ch &+ k256[i] &+ w[i]
        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
        let maj = (a & b) ^ (a & c) ^ (b & c)
        let t2 = s0 &+ maj
        (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
      }
      h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }
    return h.flatMap(bytes)
  }

  static func hmac(_ hash: ([UInt8]) -> [UInt8], key: [UInt8], message: [UInt8]) -> [UInt8] {
    var k = key.count > 64 ? hash(key) : key
    k += [UInt8](repeating: 0, count: 64 - k.count)
    let inner = hash(k.map { $0 ^ 0x36 } + message)
    return hash(k.map { $0 ^ 0x5c } + inner)
  }

  private static func padded(_ message: [UInt8]) -> [[UInt8]] {
    var data = message + [0x80]
    while data.count % 64 != 56 { data.append(0) }
    data += (0..<8).reversed().map { UInt8(truncatingIfNeeded: (UInt64(message.count) * 8) >> (UInt64($0) * 8)) }
    return stride(from: 0, to: data.count, by: 64).map { Array(data[$0..<($0 + 64)]) }
  }

  private static func word(_ chunk: [UInt8], _ i: Int) -> UInt32 {
    (UInt32(chunk[4 * i]) << 24) | (UInt32(chunk[4 * i + 1]) << 16) | (UInt32(chunk[4 * i + 2]) << 8) | UInt32(chunk[4 * i + 3])
  }

  private static func bytes(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }
  private static func rotl(_ v: UInt32, _ n: UInt32) -> UInt32 { (v << n) | (v >> (32 - n)) }
  private static func rotr(_ v: UInt32, _ n: UInt32) -> UInt32 { (v >> n) | (v << (32 - n)) }

  private static let k256: [UInt32] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]
}
