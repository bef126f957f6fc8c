// D-Bus type signatures, split into their complete types, as the encoder
// walks them (DBusValue+Message.swift). Nothing here touches C.

/// Reading D-Bus type signatures, such as `sa{sv}as`.
package enum DBusSignature {
  /// The basic type codes.
  static let basicCodes: Set<Character> = [
    "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h",
  ]

  /// Splits a signature into its complete types: `sa{sv}as` into `s`,
  /// `a{sv}` and `as`.
  ///
  /// - Returns: Nil if the signature is not valid: an unknown code, an
  ///   unclosed container, a dictionary entry outside an array or with a
  ///   key that is not basic, or an empty structure.
  package static func completeTypes(
    in signature: some StringProtocol
  )
    -> [Substring]?
  {
    let text = Substring(signature)
    var types: [Substring] = []
    var start = text.startIndex
    while start < text.endIndex {
      guard let end = endOfType(in: text, from: start, inArray: false) else {
        return nil
      }
      types.append(text[start..<end])
      start = end
    }
    return types
  }

  /// The index after the complete type that starts at `start`.
  private static func endOfType(
    in text: Substring, from start: Substring.Index, inArray: Bool
  ) -> Substring.Index? {
    guard start < text.endIndex else { return nil }
    let code = text[start]
    let next = text.index(after: start)
    if basicCodes.contains(code) || code == "v" { return next }
    switch code {
    case "a":
      return endOfType(in: text, from: next, inArray: true)
    case "(":
      var index = next
      var count = 0
      while index < text.endIndex, text[index] != ")" {
        guard let end = endOfType(in: text, from: index, inArray: false)
        else { return nil }
        index = end
        count += 1
      }
      guard index < text.endIndex, count > 0 else { return nil }
      return text.index(after: index)
    case "{":
      guard inArray, next < text.endIndex, basicCodes.contains(text[next])
      else { return nil }
      let valueStart = text.index(after: next)
      guard
        let valueEnd = endOfType(in: text, from: valueStart, inArray: false),
        valueEnd < text.endIndex, text[valueEnd] == "}"
      else { return nil }
      return text.index(after: valueEnd)
    default:
      return nil
    }
  }
}
