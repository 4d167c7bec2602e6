/// One line of sample code split the way the sample readers need it: the code without its `//`
/// comment (string literals kept), the comment, and the "bare" code, where each string literal is
/// reduced to the expressions it interpolates (`"\(x)"`, `"${x}"`, `"$x"`), so braces, names and
/// `//` inside strings count for nothing. A line longer than `limit` is read as empty: no sample
/// has one, and the readers' patterns need not scan megabytes of junk.
struct CodeText: Sendable {
  static let limit = 4000

  let code: String
  let comment: String
  let bare: String

  init(_ line: String) {
    guard line.utf8.count <= Self.limit else {
      (code, comment, bare) = ("", "", "")
      return
    }
    let chars = Array(line)
    var code = ""
    var bare = ""
    var comment = ""
    var quote: Character?
    var i = 0
    while i < chars.count {
      let c = chars[i]
      let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
      if let q = quote {
        code.append(c)
        if c == "\\", next == "(" {
          let (inner, end) = Self.balanced(chars, from: i + 1, open: "(", close: ")")
          bare += " " + inner + " "
          code += String(chars[(i + 1)..<min(end + 1, chars.count)])
          i = end + 1
          continue
        }
        if c == "$", next == "{" {
          let (inner, end) = Self.balanced(chars, from: i + 1, open: "{", close: "}")
          bare += " " + inner + " "
          code += String(chars[(i + 1)..<min(end + 1, chars.count)])
          i = end + 1
          continue
        }
        if c == "$", let n = next, n.isLetter || n == "_" {
          var j = i + 1
          while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
          bare += " " + String(chars[(i + 1)..<j]) + " "
          code += String(chars[(i + 1)..<j])
          i = j
          continue
        }
        if c == "\\", let n = next {
          code.append(n)
          i += 2
          continue
        }
        if c == q {
          quote = nil
          bare += " "
        }
        i += 1
        continue
      }
      if c == "/", next == "/" {
        comment = String(chars[(i + 2)...])
        break
      }
      if c == "\"" || c == "'" || c == "`" {
        quote = c
        code.append(c)
        bare += " "
        i += 1
        continue
      }
      code.append(c)
      bare.append(c)
      i += 1
    }
    self.code = code
    self.bare = bare
    self.comment = comment
  }

  /// The text between `open` at `from` and its matching `close`, and the index of that close
  /// (the last index when it never closes).
  static func balanced(_ chars: [Character], from: Int, open: Character, close: Character) -> (String, Int) {
    var depth = 0
    var j = from
    while j < chars.count {
      if chars[j] == open { depth += 1 }
      if chars[j] == close {
        depth -= 1
        if depth == 0 { return (String(chars[(from + 1)..<j]), j) }
      }
      j += 1
    }
    return (String(chars[min(from + 1, chars.count)...]), chars.count - 1)
  }

  /// Opening minus closing braces outside strings and comments.
  var braceBalance: Int {
    bare.reduce(0) { $0 + ($1 == "{" ? 1 : $1 == "}" ? -1 : 0) }
  }

  static func braceBalance(_ line: String) -> Int { CodeText(line).braceBalance }
}
