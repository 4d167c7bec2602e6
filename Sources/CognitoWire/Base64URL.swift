import Foundation

/// RFC 4648 §5 base64url, written without padding as JOSE (JWTs, JWKS) and WebAuthn write it.
package enum Base64URL {
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// The bytes of `text`, or nil when it is not base64url. Padding is an error unless
  /// `allowsPadding` (JOSE forbids it; a WebAuthn client may still send it).
  package static func decode(_ text: some StringProtocol, allowsPadding: Bool = false) -> Data? {
    var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    if allowsPadding {
      while s.hasSuffix("=") { s.removeLast() }
    } else if s.contains("=") {
      return nil
    }
    s += String(repeating: "=", count: (4 - s.count % 4) % 4)
    return Data(base64Encoded: s)
  }
}
