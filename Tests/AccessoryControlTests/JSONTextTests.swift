// JSON text to and from JSONValue without Codable: what is written, what is
// read, every error with its reason and byte offset, agreement with
// Foundation's JSONDecoder, and the control protocol's messages.

import AccessoryControl
import Foundation
import Testing

/// A document the parser must refuse, with the exact error.
struct JSONSyntaxCase: Sendable, CustomTestStringConvertible {
  var label: String
  var bytes: [UInt8]
  var reason: String
  var offset: Int

  init(_ label: String, _ text: String, _ reason: String, at offset: Int) {
    self.init(label, bytes: Array(text.utf8), reason, at: offset)
  }

  init(_ label: String, bytes: [UInt8], _ reason: String, at offset: Int) {
    self.label = label
    self.bytes = bytes
    self.reason = reason
    self.offset = offset
  }

  var testDescription: String { label }
}

@Suite("JSON text")
struct JSONTextTests {
  // MARK: - Writing and reading back

  @Test(
    "Canonical text reads and writes back unchanged",
    arguments: [
      #"{"a":{"b":[1,2,{"c":null}],"d":"e"},"f":[[],{}]}"#,
      #"[[[[["deep"]]]]]"#,
      #"[true,false,null]"#,
      #"{}"#,
      #"[]"#,
      #"{"":""}"#,
      #""text""#,
      #"-32700"#,
      #"0.5"#,
      #"-0.25"#,
      #"9007199254740992"#,
      #"1e+300"#,
      #"{"id":1,"jsonrpc":"2.0","method":"accessory.list","params":{}}"#,
    ])
  func roundTrip(text: String) throws {
    let value = try JSONValue(parsing: Array(text.utf8))
    #expect(value.jsonText == text)
    #expect(value.serialized() == Array(text.utf8))
    #expect(try JSONValue(parsing: value.serialized()) == value)
  }

  @Test(
    "Text is written compactly, with sorted keys and plain numbers",
    arguments: [
      (#"{"b":1,"a":[true,false,null]}"#, #"{"a":[true,false,null],"b":1}"#),
      (#"{"z":{"y":2,"x":1},"m":0}"#, #"{"m":0,"z":{"x":1,"y":2}}"#),
      (" \n\t\r[ 1 , 2 , { \"k\" : \"v\" } ] \n", #"[1,2,{"k":"v"}]"#),
      ("1.0", "1"),
      ("-32700.000", "-32700"),
      ("1E2", "100"),
      ("2.50", "2.5"),
      ("-0", "0"),
      ("1e300", "1e+300"),
      (#""\/""#, #""/""#),
      (#""\u00e9""#, #""é""#),
      (#""\u00E9""#, #""é""#),
      (#""\ud83d\ude00""#, #""😀""#),
      (#""\u001F""#, #""\u001f""#),
      (#""\u0000""#, #""\u0000""#),
      (#""\u0041""#, #""A""#),
    ])
  func normalizedText(input: String, output: String) throws {
    #expect(try JSONValue(parsing: Array(input.utf8)).jsonText == output)
  }

  @Test(
    "Numbers are written whole when whole, and null when not finite",
    arguments: [
      (1.0, "1"),
      (-32700, "-32700"),
      (0, "0"),
      (0.5, "0.5"),
      (-1.5, "-1.5"),
      (9_007_199_254_740_992, "9007199254740992"),
      (-9_007_199_254_740_992, "-9007199254740992"),
      (1e300, "1e+300"),
      (Double.infinity, "null"),
      (-Double.infinity, "null"),
      (Double.nan, "null"),
    ])
  func numberText(number: Double, text: String) {
    #expect(JSONValue.number(number).jsonText == text)
  }

  @Test("Non-finite numbers inside containers are written as null")
  func nonFiniteInContainers() {
    let value: JSONValue = [
      "a": .number(.infinity), "b": [.number(.nan), 1],
    ]
    #expect(value.jsonText == #"{"a":null,"b":[null,1]}"#)
  }

  @Test("A very large number reads back as itself")
  func largeNumberReadsBack() throws {
    let text = JSONValue.number(1e300).serialized()
    #expect(try JSONValue(parsing: text) == .number(1e300))
    let other = JSONValue.number(1.2345678901234567e-300).serialized()
    #expect(try JSONValue(parsing: other) == .number(1.2345678901234567e-300))
  }

  // MARK: - Strings

  @Test(
    "Strings are escaped when written, and read back as themselves",
    arguments: [
      ("quote \"", #""quote \"""#),
      ("back \\ slash", #""back \\ slash""#),
      ("line\nfeed", #""line\nfeed""#),
      ("tab\t", #""tab\t""#),
      ("return\r", #""return\r""#),
      ("\u{08}", #""\b""#),
      ("\u{0C}", #""\f""#),
      ("\u{1F}", #""\u001f""#),
      ("\u{01}\u{1B}", #""\u0001\u001b""#),
      ("\u{00}", #""\u0000""#),
      ("a/b", #""a/b""#),
      ("\u{7F}", "\"\u{7F}\""),
      ("é", #""é""#),
      ("😀", #""😀""#),
      ("日本語 Ünïcødé", #""日本語 Ünïcødé""#),
    ])
  func stringEscapes(string: String, text: String) throws {
    let value = JSONValue.string(string)
    #expect(value.jsonText == text)
    #expect(try JSONValue(parsing: Array(text.utf8)) == value)
  }

  @Test(
    "Escapes are read",
    arguments: [
      (#""\"""#, "\""),
      (#""\\""#, "\\"),
      (#""\/""#, "/"),
      (#""\n\t\r\b\f""#, "\n\t\r\u{08}\u{0C}"),
      (#""\u00e9""#, "é"),
      (#""caf\u00E9!""#, "café!"),
      (#""\ud83d\ude00""#, "😀"),
      (#""x\uD83D\uDE00y""#, "x😀y"),
      (#""é\n😀""#, "é\n😀"),
      (#""raw é 😀 日本""#, "raw é 😀 日本"),
    ])
  func escapesRead(text: String, string: String) throws {
    #expect(try JSONValue(parsing: Array(text.utf8)) == .string(string))
  }

  @Test("Raw UTF-8 bytes pass through both ways unchanged")
  func rawUTF8PassesThrough() throws {
    let bytes: [UInt8] = [0x22, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0x22]
    let value = try JSONValue(parsing: bytes)
    #expect(value == .string("é😀"))
    #expect(value.serialized() == bytes)
  }

  // MARK: - Errors

  static let syntaxErrors: [JSONSyntaxCase] = [
    JSONSyntaxCase("empty", "", "expected a value, found the end", at: 0),
    JSONSyntaxCase(
      "white space only", "  \n", "expected a value, found the end", at: 3),
    JSONSyntaxCase(
      "trailing garbage", "{} x", "unexpected text after the value", at: 3),
    JSONSyntaxCase(
      "two values", "1 2", "unexpected text after the value", at: 2),
    JSONSyntaxCase("missing colon", #"{"a" 1}"#, "expected ':'", at: 5),
    JSONSyntaxCase(
      "trailing comma in an object", #"{"a":1,}"#,
      "expected a member name in quotes", at: 7),
    JSONSyntaxCase(
      "unquoted name", "{a:1}", "expected a member name in quotes", at: 1),
    JSONSyntaxCase(
      "object without its end", #"{"a":1"#,
      "expected ',' or '}', found the end", at: 6),
    JSONSyntaxCase(
      "object with a bad separator", #"{"a":1;"b":2}"#,
      "expected ',' or '}'", at: 6),
    JSONSyntaxCase(
      "trailing comma in an array", "[1,]", "expected a value", at: 3),
    JSONSyntaxCase(
      "array without its end", "[1", "expected ',' or ']', found the end",
      at: 2),
    JSONSyntaxCase(
      "array with a bad separator", "[1 2]", "expected ',' or ']'", at: 3),
    JSONSyntaxCase(
      "leading zero", "01", "unexpected text after the value", at: 1),
    JSONSyntaxCase(
      "negative leading zero", "-01", "unexpected text after the value",
      at: 2),
    JSONSyntaxCase("minus alone", "-", "expected a digit", at: 1),
    JSONSyntaxCase("minus and a letter", "-a", "expected a digit", at: 1),
    JSONSyntaxCase("plus sign", "+1", "expected a value", at: 0),
    JSONSyntaxCase("leading point", ".5", "expected a value", at: 0),
    JSONSyntaxCase("point without digits", "1.", "expected a digit", at: 2),
    JSONSyntaxCase("exponent without digits", "1e", "expected a digit", at: 2),
    JSONSyntaxCase(
      "signed exponent without digits", "1e+", "expected a digit", at: 3),
    JSONSyntaxCase("truncated true", "tru", "expected 'true'", at: 0),
    JSONSyntaxCase("misspelled false", "fals3", "expected 'false'", at: 0),
    JSONSyntaxCase("truncated null", "nul", "expected 'null'", at: 0),
    JSONSyntaxCase(
      "word followed by more", "truex", "unexpected text after the value",
      at: 4),
    JSONSyntaxCase(
      "unterminated string", #""abc"#, "a string that does not end", at: 4),
    JSONSyntaxCase(
      "unterminated string after an escape", #""a\n"#,
      "a string that does not end", at: 4),
    JSONSyntaxCase(
      "string ending in a backslash", #""\"#, "a string that does not end",
      at: 2),
    JSONSyntaxCase(
      "raw line feed in a string", "\"a\nb\"",
      "a control character in a string", at: 2),
    JSONSyntaxCase(
      "raw tab in a string after an escape", "\"\\n\t\"",
      "a control character in a string", at: 3),
    JSONSyntaxCase(
      "invalid escape", #""\x""#, #"an unknown escape '\x'"#, at: 2),
    JSONSyntaxCase(
      "short unicode escape", #""\u12""#, "expected four hexadecimal digits",
      at: 3),
    JSONSyntaxCase(
      "non-hexadecimal unicode escape", #""\u12g4""#,
      "expected a hexadecimal digit", at: 5),
    JSONSyntaxCase(
      "lone high surrogate", #""\ud83d""#,
      "expected the second half of a surrogate pair", at: 7),
    JSONSyntaxCase(
      "high surrogate followed by text", #""\ud83dabcdefg""#,
      "expected the second half of a surrogate pair", at: 7),
    JSONSyntaxCase(
      "high surrogate followed by a non-surrogate", #""\ud83d\u0041""#,
      "expected the second half of a surrogate pair", at: 13),
    JSONSyntaxCase(
      "lone low surrogate", #""\ude00""#, #"a lone surrogate in a \u escape"#,
      at: 7),
    JSONSyntaxCase(
      "invalid UTF-8 in a string", bytes: [0x22, 0xFF, 0x22],
      "a string that is not valid UTF-8", at: 1),
    JSONSyntaxCase(
      "truncated UTF-8 in a string",
      bytes: [0x5B, 0x22, 0x61, 0xC3, 0x22, 0x5D],
      "a string that is not valid UTF-8", at: 2),
    JSONSyntaxCase(
      "invalid UTF-8 after an escape",
      bytes: [0x22, 0x5C, 0x6E, 0xFE, 0x22],
      "a string that is not valid UTF-8", at: 1),
    JSONSyntaxCase(
      "invalid UTF-8 in a member name", bytes: [0x7B, 0x22, 0xC0, 0x80, 0x22],
      "a string that is not valid UTF-8", at: 2),
    JSONSyntaxCase(
      "nested too deeply",
      String(repeating: "[", count: JSONValue.maximumNestingDepth + 1)
        + String(repeating: "]", count: JSONValue.maximumNestingDepth + 1),
      "nested deeper than 256 levels", at: 256),
    JSONSyntaxCase(
      "objects nested too deeply",
      String(
        repeating: #"{"a":"#, count: JSONValue.maximumNestingDepth + 1)
        + "1"
        + String(repeating: "}", count: JSONValue.maximumNestingDepth + 1),
      "nested deeper than 256 levels", at: 256 * 5),
    JSONSyntaxCase(
      "number out of range", "1e999", "the number 1e999 is out of range",
      at: 0),
    JSONSyntaxCase(
      "negative number out of range", "[0,-1e999]",
      "the number -1e999 is out of range", at: 3),
  ]

  @Test(
    "Text that is not JSON is refused where and why", arguments: syntaxErrors)
  func syntaxError(_ example: JSONSyntaxCase) {
    let expected = JSONSyntaxError(
      offset: example.offset, reason: example.reason)
    #expect(throws: expected) { try JSONValue(parsing: example.bytes) }
  }

  @Test("The maximum nesting depth is 256 and is allowed exactly")
  func maximumDepthParses() throws {
    #expect(JSONValue.maximumNestingDepth == 256)
    let depth = JSONValue.maximumNestingDepth
    let text =
      String(repeating: "[", count: depth)
      + String(repeating: "]", count: depth)
    var value = try JSONValue(parsing: Array(text.utf8))
    var levels = 0
    while case .array(let elements) = value {
      levels += 1
      guard let first = elements.first else { break }
      value = first
    }
    #expect(levels == depth)
  }

  @Test("Depth is counted per path, not in total")
  func siblingsDoNotAddDepth() throws {
    let depth = JSONValue.maximumNestingDepth
    let deep =
      String(repeating: "[", count: depth - 1)
      + String(repeating: "]", count: depth - 1)
    let text = "[" + deep + "," + deep + "]"
    #expect(throws: Never.self) { try JSONValue(parsing: Array(text.utf8)) }
  }

  @Test("A syntax error describes itself with its offset")
  func syntaxErrorDescription() {
    let error = JSONSyntaxError(offset: 12, reason: "expected ':'")
    #expect(error.description == "expected ':' at byte 12")
  }

  // MARK: - Agreement with Foundation

  @Test(
    "Valid documents read the same as with JSONDecoder",
    arguments: [
      #"{"b":1,"a":[true,false,null]}"#,
      #"[1,-2.5,3e2,0,-0,1E-3,12345678901234]"#,
      #""\u00e9\ud83d\ude00\n\/\"\\\t""#,
      #"{"nested":{"deeper":[{"x":"y"},[]]},"empty":{}}"#,
      "null",
      "true",
      "false",
      "[]",
      "{}",
      #""plain é 😀 日本""#,
      " { \"spaced\" : [ 1 , 2 ] }\n",
      #"{"jsonrpc":"2.0","id":"a-1","result":{"ok":true,"n":0.5}}"#,
    ])
  func matchesJSONDecoder(text: String) throws {
    let ours = try JSONValue(parsing: Array(text.utf8))
    let foundation = try JSONDecoder().decode(
      JSONValue.self, from: Data(text.utf8))
    #expect(ours == foundation)
  }

  // MARK: - Control messages

  static let responses: [(ControlResponse, String)] = [
    (
      .success(id: 7, ["ok": true, "count": 2]),
      #"{"id":7,"jsonrpc":"2.0","result":{"count":2,"ok":true}}"#
    ),
    (.success(id: nil, []), #"{"id":null,"jsonrpc":"2.0","result":[]}"#),
    (
      .failure(
        id: "req-1",
        ControlError(
          code: .invalidParams, message: "invalid params: missing 'id'",
          data: ["case": "invalidParams", "field": "id"])),
      #"{"error":{"code":-32602,"data":{"case":"invalidParams","field":"id"},"#
        + #""message":"invalid params: missing 'id'"},"id":"req-1","jsonrpc":"2.0"}"#
    ),
    (
      .failure(id: nil, .parseError("expected ':' at byte 5")),
      #"{"error":{"code":-32700,"message":"parse error: expected ':' at byte 5"},"#
        + #""id":null,"jsonrpc":"2.0"}"#
    ),
    (
      .notification(
        method: "event", ["kind": "placement", "placement": "inEar"]),
      #"{"jsonrpc":"2.0","method":"event","#
        + #""params":{"kind":"placement","placement":"inEar"}}"#
    ),
  ]

  @Test("Responses are written as exact JSON", arguments: responses)
  func responseText(response: ControlResponse, text: String) {
    #expect(response.json.jsonText == text)
    #expect(response.line() == Data((text + "\n").utf8))
  }

  @Test(
    "Responses round trip through a line of text",
    arguments: responses.map(\.0))
  func responseRoundTrip(response: ControlResponse) throws {
    let line = response.line()
    #expect(line.last == 0x0A)
    let json = try JSONValue(parsing: line)
    #expect(json == response.json)
    #expect(ControlResponse(json: json) == response)
    #expect(
      ControlResponse(json: json)?.isNotification == response.isNotification)
  }

  @Test(
    "The direct JSON form of a response matches its Codable form",
    arguments: responses.map(\.0))
  func responseMatchesCodable(response: ControlResponse) throws {
    #expect(try JSONValue(encoding: response) == response.json)
  }

  @Test(
    "What is not a JSON-RPC 2.0 response is not read as one",
    arguments: [
      ["jsonrpc": "1.0", "id": 1, "result": true],
      ["id": 1, "result": true],
      ["jsonrpc": 2, "id": 1, "result": true],
      ["jsonrpc": "2.0", "id": 1, "error": ["message": "no code"]],
      ["jsonrpc": "2.0", "id": 1, "error": ["code": 1.5, "message": "x"]],
      ["jsonrpc": "2.0", "id": 1, "error": ["code": -32000]],
      ["jsonrpc": "2.0", "id": 1, "error": "failed"],
      ["jsonrpc": "2.0", "method": 1, "params": [:]],
      ["jsonrpc": "2.0", "method": .null],
      [["jsonrpc": "2.0", "id": 1, "result": true]],
      "2.0",
      .null,
    ] as [JSONValue])
  func notAResponse(json: JSONValue) {
    #expect(ControlResponse(json: json) == nil)
  }

  @Test("A response keeps what it does not check")
  func responseReadsMembers() throws {
    let json = try JSONValue(
      parsing: Array(
        #"{"jsonrpc":"2.0","id":[1],"result":{"a":null},"extra":true}"#.utf8))
    let response = try #require(ControlResponse(json: json))
    #expect(response.id == [1])
    #expect(response.result == ["a": .null])
    #expect(response.error == nil)
    #expect(response.method == nil)
    #expect(!response.isNotification)
  }

  @Test(
    "Requests are written as exact JSON, matching their Codable form",
    arguments: [
      (
        ControlRequest(id: 1, method: "accessory.list"),
        #"{"id":1,"jsonrpc":"2.0","method":"accessory.list"}"#
      ),
      (
        ControlRequest(
          id: "a", method: "accessory.update",
          params: ["id": "AA:BB", "placement": "inEar"]),
        #"{"id":"a","jsonrpc":"2.0","method":"accessory.update","#
          + #""params":{"id":"AA:BB","placement":"inEar"}}"#
      ),
      (
        ControlRequest(id: nil, method: "ping", params: [:]),
        #"{"jsonrpc":"2.0","method":"ping","params":{}}"#
      ),
    ])
  func requestText(request: ControlRequest, text: String) throws {
    #expect(request.json.jsonText == text)
    #expect(try JSONValue(encoding: request) == request.json)
    #expect(try JSONValue(parsing: Array(text.utf8)) == request.json)
  }
}
