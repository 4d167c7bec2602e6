import CognitoWire
import Foundation
import Testing

/// The byte-level search and replacement the client's redaction and the harness's secret
/// check use on ASCII text: the same answers as Foundation and the standard library.
@Suite("UTF-8 search")
struct UTF8SearchTests {
  static let texts = [
    "", "Cognito error NotAuthorizedException: x (request: PASSWORD=Passw0rd!, USERNAME=user)",
    "123456123456", "NewPassw0rd!", "aaa", "sim-session-12 and sim-session-1", "caf\u{E9} 123456",
  ]
  static let needles = ["Passw0rd!", "123456", "aa", "sim-session-1", "x", "caf\u{E9}", "zzz"]

  @Test("contains and replacing agree with String.contains and replacingOccurrences")
  func agreesWithFoundation() {
    for text in Self.texts {
      for needle in Self.needles {
        if UTF8Search.isASCII(text) && UTF8Search.isASCII(needle) {
          #expect(UTF8Search.contains(text, needle) == text.contains(needle), "\(text) / \(needle)")
        }
        let fast = UTF8Search.replacing(needle, with: "[redacted]", in: text)
        if let fast {
          #expect(fast == text.replacingOccurrences(of: needle, with: "[redacted]"), "\(text) / \(needle)")
        } else {
          #expect(!UTF8Search.isPrintableASCII(text) || !UTF8Search.isASCII(needle))
        }
      }
    }
  }
}
