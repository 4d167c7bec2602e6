/// `simulate --format json`: `{"format": "signin-spec.simulate", "version": 2, "platform":
/// "swift", "calls": [...]}`, with every key of every call present (null where it does not
/// apply), in a stable order. Version 2 added `platform` and each call's `exception` (the
/// exception behind the outcome) beside `error` (what the platform reports).
public enum SimulationJSON {
  public static let version = 2
  public static let keys = ["call", "response", "outcome", "stepId", "step", "exception", "error", "reason"]

  public static func render(_ records: [CallRecord], platform: String) -> String {
    let calls = records.map { record -> String in
      let object = record.jsonObject
      let fields = keys.map { key in "\"\(key)\": " + (object[key].flatMap { $0 }.map(quote) ?? "null") }
      return "    {" + fields.joined(separator: ", ") + "}"
    }
    let list = calls.isEmpty ? "[]" : "[\n" + calls.joined(separator: ",\n") + "\n  ]"
    return
      "{\n  \"format\": \"signin-spec.simulate\",\n  \"version\": \(version),\n  \"platform\": \(quote(platform)),\n"
      + "  \"calls\": \(list)\n}"
  }

  static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let s where s.value < 0x20:
        let hex = String(s.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
