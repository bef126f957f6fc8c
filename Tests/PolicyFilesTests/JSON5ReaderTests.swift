import Foundation
import Testing

@testable import PolicyFiles

/// A text the reader must accept and the value it must read.
struct GoodJSON5: Sendable, CustomTestStringConvertible {
  /// What the case shows.
  var kind: String
  /// The JSON5 text.
  var text: String
  /// The value read.
  var value: PolicyValue
  /// The kind, as the test's name.
  var testDescription: String { kind }
}

/// A text the reader must refuse and its exact error.
struct BadJSON5: Sendable, CustomTestStringConvertible {
  /// What is wrong.
  var kind: String
  /// The JSON5 text.
  var text: String
  /// The error, as `line L, column C: message`.
  var error: String
  /// The kind, as the test's name.
  var testDescription: String { kind }
}

/// The value as JSONDecoder with JSON5 read it before JSON5Reader, to check
/// that the shipped policies read the same.
private struct DecodedValue: Decodable {
  var value: PolicyValue

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      value = .null
    } else if let flag = try? container.decode(Bool.self) {
      value = .bool(flag)
    } else if let number = try? container.decode(Double.self) {
      value = .number(number)
    } else if let text = try? container.decode(String.self) {
      value = .string(text)
    } else if let elements = try? container.decode([DecodedValue].self) {
      value = .array(elements.map(\.value))
    } else {
      value = .object(
        try container.decode([String: DecodedValue].self).mapValues(\.value))
    }
  }
}

private func nested(_ depth: Int) -> String {
  String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
}

private func nestedValue(_ depth: Int) -> PolicyValue {
  (1..<depth).reduce(PolicyValue.array([])) { inner, _ in .array([inner]) }
}

@Suite("JSON5 reader")
struct JSON5ReaderTests {
  static let goodTexts: [GoodJSON5] = [
    GoodJSON5(
      kind: "trailing commas", text: "{ a: [1, 2,], b: { c: true, }, }",
      value: .object([
        "a": .array([.number(1), .number(2)]),
        "b": .object(["c": .bool(true)]),
      ])),
    GoodJSON5(
      kind: "empty object and array", text: "{ a: {}, b: [ ] }",
      value: .object(["a": .object([:]), "b": .array([])])),
    GoodJSON5(
      kind: "unquoted keys", text: "{ $id: 1, _x: 2, camel3Case: 3, café: 4 }",
      value: .object([
        "$id": .number(1), "_x": .number(2), "camel3Case": .number(3),
        "café": .number(4),
      ])),
    GoodJSON5(
      kind: "quoted keys", text: #"{ "a b": 1, 'c.d': 2, "": 3 }"#,
      value: .object([
        "a b": .number(1), "c.d": .number(2), "": .number(3),
      ])),
    GoodJSON5(
      kind: "single escapes",
      text: #""\' \" \\ \/ \b \f \n \r \t \v \0""#,
      value: .string("' \" \\ / \u{8} \u{C} \n \r \t \u{B} \0")),
    GoodJSON5(
      kind: "quotes inside the other quotes",
      text: #"['say "hi"', "it's"]"#,
      value: .array([.string("say \"hi\""), .string("it's")])),
    GoodJSON5(
      kind: "hexadecimal escapes", text: #"'\x41\xe9\x7F'"#,
      value: .string("Aé\u{7F}")),
    GoodJSON5(
      kind: "unicode escapes", text: #"'\u00E9\u4e2d\u0000'"#,
      value: .string("é中\0")),
    GoodJSON5(
      kind: "a surrogate pair", text: #"'\uD83D\uDE00'"#,
      value: .string("😀")),
    GoodJSON5(
      kind: "line continuations",
      text: "'a\\\nb\\\r\nc\\\rd\\\u{2028}e\\\u{2029}f'",
      value: .string("abcdef")),
    GoodJSON5(
      kind: "raw text, tabs and line separators in a string",
      text: "'é 中 😀\t\u{2028}\u{2029}'",
      value: .string("é 中 😀\t\u{2028}\u{2029}")),
    GoodJSON5(
      kind: "decimal numbers",
      text: "[0, -0, 1, -2, +3, 1.5, .5, 5., -.25, 10.0, 123456789012]",
      value: .array(
        [0, -0, 1, -2, 3, 1.5, 0.5, 5, -0.25, 10, 123_456_789_012].map {
          .number($0)
        })),
    GoodJSON5(
      kind: "exponents", text: "[1e3, 1E-2, 2.5e+1, .5e1, 5.e1, 0e0]",
      value: .array([1000, 0.01, 25, 5, 50, 0].map { .number($0) })),
    GoodJSON5(
      kind: "hexadecimal numbers", text: "[0x1F, 0XfF, -0x10, +0xa, 0x0]",
      value: .array([31, 255, -16, 10, 0].map { .number($0) })),
    GoodJSON5(
      kind: "infinities", text: "[Infinity, -Infinity, +Infinity]",
      value: .array([.infinity, -.infinity, .infinity].map { .number($0) })),
    GoodJSON5(
      kind: "literals", text: "[true, false, null]",
      value: .array([.bool(true), .bool(false), .null])),
    GoodJSON5(
      kind: "comments wherever space may be",
      text: "/* a */ { // b\n k /* c */ : /* d */ 1 /* e */, // f\n } // g",
      value: .object(["k": .number(1)])),
    GoodJSON5(
      kind: "a line comment ending in CR or U+2028",
      text: "[ // a\r 1, // b\u{2028} 2 ]",
      value: .array([.number(1), .number(2)])),
    GoodJSON5(
      kind: "a block comment with stars and slashes",
      text: "[ /** a * / **/ 1 ]", value: .array([.number(1)])),
    GoodJSON5(
      kind: "every kind of space",
      text: "\u{FEFF}\t{\u{B}\u{C}\r\n a\u{A0}:\u{2028}1\u{2029},\u{3000}}\n",
      value: .object(["a": .number(1)])),
    GoodJSON5(
      kind: "a value that is not an object", text: " 'x' ",
      value: .string("x")),
    GoodJSON5(
      kind: "JSON as JSONEncoder writes it",
      text: #"{"a":"x\/y","b":[1,2.5,-3e-05],"c":{"d":null}}"#,
      value: .object([
        "a": .string("x/y"),
        "b": .array([.number(1), .number(2.5), .number(-3e-05)]),
        "c": .object(["d": .null]),
      ])),
    GoodJSON5(
      kind: "the deepest nesting allowed", text: nested(128),
      value: nestedValue(128)),
  ]

  @Test(arguments: goodTexts)
  func readsEveryJSON5Feature(_ good: GoodJSON5) throws {
    #expect(try JSON5Reader.read(Data(good.text.utf8)) == good.value)
  }

  @Test func readsNaN() throws {
    let value = try JSON5Reader.read(Data("[NaN, -NaN, +NaN]".utf8))
    guard case .array(let elements) = value else {
      Issue.record("read \(value)")
      return
    }
    #expect(elements.count == 3)
    for element in elements {
      guard case .number(let number) = element, number.isNaN else {
        Issue.record("read \(element)")
        continue
      }
    }
  }

  @Test(arguments: [
    "default", "manual-first", "placement-only", "multipoint-shared",
  ])
  func readsEachShippedPolicyAsJSONDecoderDid(_ name: String) throws {
    let data = try Data(
      contentsOf: policiesDirectory.appendingPathComponent(name + ".json5"))
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    let decoded = try decoder.decode(DecodedValue.self, from: data).value
    #expect(try JSON5Reader.read(data) == decoded)
  }

  static let badTexts: [BadJSON5] = [
    BadJSON5(
      kind: "missing colon", text: "{\n  placement { }\n}",
      error:
        "line 2, column 13: expected ':' after the key 'placement', found '{'"
    ),
    BadJSON5(
      kind: "missing comma between members",
      text: "{ version: 1\n  description: 'x' }",
      error:
        "line 2, column 3: expected ',' or '}' after the value of 'version', "
        + "found 'd'"),
    BadJSON5(
      kind: "double comma in an object", text: "{ a: 1,, }",
      error: "line 1, column 8: expected a key or '}', found ','"),
    BadJSON5(
      kind: "double comma in an array", text: "[1,, 2]",
      error: "line 1, column 4: expected a value, found ','"),
    BadJSON5(
      kind: "missing comma in an array", text: "[1 2]",
      error:
        "line 1, column 4: expected ',' or ']' after an element of the array, "
        + "found '2'"),
    BadJSON5(
      kind: "a key that is not a name", text: "{ 1: 2 }",
      error: "line 1, column 3: expected a key or '}', found '1'"),
    BadJSON5(
      kind: "an object that does not end", text: "{ version: 1, ",
      error:
        "line 1, column 15: expected a key or '}', found the end of the file"),
    BadJSON5(
      kind: "a duplicate key", text: "{\n  a: 1,\n  'a': 2\n}",
      error:
        "line 3, column 3: the key 'a' appears twice; it is first at line 2, "
        + "column 3"),
    BadJSON5(
      kind: "unterminated string", text: "{ description: \"abc }",
      error:
        "line 1, column 16: a string that does not end; expected a closing "
        + "'\"' before the end of the file"),
    BadJSON5(
      kind: "a newline inside a quoted string", text: "{ a: 'abc\n' }",
      error:
        "line 1, column 6: a string that does not end; expected a closing "
        + "\"'\" before the end of the line"),
    BadJSON5(
      kind: "a backslash at the end of the file", text: "'abc\\",
      error:
        "line 1, column 1: a string that does not end; expected a closing "
        + "\"'\" before the end of the file"),
    BadJSON5(
      kind: "unterminated block comment", text: "{ version: 1 } /* note *",
      error:
        "line 1, column 16: a comment that does not end; expected '*/' "
        + "before the end of the file"),
    BadJSON5(
      kind: "bad escape", text: #"'a\qb'"#,
      error:
        #"line 1, column 3: unknown escape '\q'; expected one of \' \" \\ \/ "#
        + #"\b \f \n \r \t \v \0 \xHH \uHHHH, or \\ for a backslash"#),
    BadJSON5(
      kind: "an octal escape", text: #"'\1'"#,
      error:
        #"line 1, column 2: unknown escape '\1'; expected one of \' \" \\ \/ "#
        + #"\b \f \n \r \t \v \0 \xHH \uHHHH, or \\ for a backslash"#),
    BadJSON5(
      kind: "a digit after \\0", text: #"'a\01'"#,
      error: #"line 1, column 5: expected no digit after '\0', found '1'"#),
    BadJSON5(
      kind: "bad hex in \\x", text: #"'\x4G'"#,
      error:
        #"line 1, column 5: expected two hexadecimal digits after '\x', "#
        + "found 'G'"),
    BadJSON5(
      kind: "short \\u", text: #"'\u12'"#,
      error:
        #"line 1, column 6: expected four hexadecimal digits after '\u', "#
        + #"found "'""#),
    BadJSON5(
      kind: "a lone high surrogate", text: #"'\uD83D x'"#,
      error:
        #"line 1, column 2: a lone surrogate '\uD83D'; expected an escape "#
        + #"from '\uDC00' to '\uDFFF' after it"#),
    BadJSON5(
      kind: "a high surrogate before a letter", text: #"'\ud83d\u0041'"#,
      error:
        #"line 1, column 2: a lone surrogate '\ud83d'; expected an escape "#
        + #"from '\uDC00' to '\uDFFF' after it"#),
    BadJSON5(
      kind: "a lone low surrogate", text: #"'ab\uDE00'"#,
      error:
        #"line 1, column 4: a lone surrogate '\uDE00'; expected an escape "#
        + #"from '\uD800' to '\uDBFF' before it"#),
    BadJSON5(
      kind: "bad hex number", text: "0xG",
      error:
        "line 1, column 3: expected a hexadecimal digit after '0x', found 'G'"
    ),
    BadJSON5(
      kind: "a number running into a word", text: "{ a: 3s }",
      error: "line 1, column 6: expected a number, found '3s'"),
    BadJSON5(
      kind: "a hex number running into a word", text: "0x1Fg",
      error: "line 1, column 1: expected a number, found '0x1Fg'"),
    BadJSON5(
      kind: "a leading zero", text: "[01]",
      error:
        "line 1, column 2: expected a number without a leading zero, found "
        + "'01'"),
    BadJSON5(
      kind: "an exponent without digits", text: "1e",
      error:
        "line 1, column 3: expected a digit in the exponent, found the end of "
        + "the file"),
    BadJSON5(
      kind: "a sign alone", text: "[-]",
      error: "line 1, column 3: expected a number after '-', found ']'"),
    BadJSON5(
      kind: "a sign before a word", text: "+foo",
      error: "line 1, column 2: expected a number after '+', found 'foo'"),
    BadJSON5(
      kind: "a point alone", text: "[.]",
      error: "line 1, column 3: expected a digit after '.', found ']'"),
    BadJSON5(
      kind: "tru", text: "{ a: tru }",
      error: "line 1, column 6: expected a value, found 'tru'"),
    BadJSON5(
      kind: "True", text: "{ a: True }",
      error:
        "line 1, column 6: expected a value, found 'True'; write true, false "
        + "and null in lower case"),
    BadJSON5(
      kind: "unquoted text", text: "{ respect: always }",
      error:
        "line 1, column 12: expected a value, found 'always'; text must be in "
        + "quotes"),
    BadJSON5(
      kind: "trailing garbage", text: "{ version: 1 } }",
      error:
        "line 1, column 16: expected the end of the file after the policy, "
        + "found '}'"),
    BadJSON5(
      kind: "a second value", text: "{}\n// two\n{}",
      error:
        "line 3, column 1: expected the end of the file after the policy, "
        + "found '{'"),
    BadJSON5(
      kind: "empty file", text: "",
      error: "line 1, column 1: expected a value, found the end of the file"),
    BadJSON5(
      kind: "only a comment", text: "// nothing here\n",
      error: "line 2, column 1: expected a value, found the end of the file"),
    BadJSON5(
      kind: "only a block comment", text: "/* x */",
      error: "line 1, column 8: expected a value, found the end of the file"),
    BadJSON5(
      kind: "a lone slash", text: "{ a: 1 / }",
      error:
        "line 1, column 8: expected ',' or '}' after the value of 'a', found "
        + "'/'"),
    BadJSON5(
      kind: "too deep nesting", text: nested(129),
      error:
        "line 1, column 129: expected at most 128 objects and arrays inside "
        + "each other, found more"),
    BadJSON5(
      kind: "too deep nesting of objects",
      text: String(repeating: "{a:", count: 200),
      error:
        "line 1, column 385: expected at most 128 objects and arrays inside "
        + "each other, found more"),
    BadJSON5(
      kind: "columns count characters", text: "{ a: 'é中😀', b }",
      error: "line 1, column 15: expected ':' after the key 'b', found '}'"),
    BadJSON5(
      kind: "CR LF ends one line", text: "{\r\n a: 1,\r\n b }",
      error: "line 3, column 4: expected ':' after the key 'b', found '}'"),
    BadJSON5(
      kind: "CR alone and U+2028 end lines", text: "{\r a: 1,\u{2028} b }",
      error: "line 3, column 4: expected ':' after the key 'b', found '}'"),
    BadJSON5(
      kind: "a tab is one column", text: "{\ta:\t}",
      error: "line 1, column 6: expected a value, found '}'"),
    BadJSON5(
      kind: "a control character", text: "{ a: \u{1} }",
      error:
        "line 1, column 6: expected a value, found the control character "
        + "U+0001"),
    BadJSON5(
      kind: "a stray quote", text: "[1 ']",
      error:
        "line 1, column 4: expected ',' or ']' after an element of the array, "
        + #"found "'""#),
  ]

  @Test(arguments: badTexts)
  func eachSyntaxErrorSaysWhereAndWhat(_ bad: BadJSON5) {
    do {
      let value = try JSON5Reader.read(Data(bad.text.utf8))
      Issue.record("read \(value)")
    } catch {
      #expect(error.description == bad.error)
    }
  }

  @Test func refusesTextThatIsNotUTF8() {
    #expect(
      throws: JSON5Reader.SyntaxError(
        line: 2, column: 4,
        message: "expected UTF-8 text, found the byte 0xC0")
    ) {
      try JSON5Reader.read(
        Data("{\n 'é".utf8) + [0xC0, 0x80] + Data("' }".utf8))
    }
  }

  @Test(arguments: [
    (
      "{ version: 1, placement: { offHeadGraceSeconds: Infinity } }",
      "placement.offHeadGraceSeconds: is the number Infinity; expected a "
        + "number of seconds from 0 to 600"
    ),
    (
      "{ version: 1, placement: { offHeadGraceSeconds: -Infinity } }",
      "placement.offHeadGraceSeconds: is the number -Infinity; expected a "
        + "number of seconds from 0 to 600"
    ),
    (
      "{ version: NaN }",
      "version: is the number NaN; expected a whole number from 1 to 1"
    ),
  ])
  func thePolicySchemaRefusesInfinityAndNaN(_ text: String, _ message: String) {
    do {
      _ = try PolicyLoader.parse(Data(text.utf8))
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func aSyntaxErrorInAFileNamesTheFileLineAndColumn() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("json5-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("strict.json5")
    try Data(
      "{\n  version: 1,\n  placement: { offHeadGraceSeconds: 3 ,, }\n}\n".utf8
    ).write(to: file)
    do {
      let policy = try PolicyLoader.load(contentsOf: file)
      Issue.record("read \(policy)")
    } catch {
      #expect(
        error.description
          == "\(file.path): line 3, column 40: expected a key or '}', "
          + "found ','")
    }
  }
}
