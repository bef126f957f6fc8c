// Appending values of any D-Bus type, guided by a signature or inferred
// from the values, read back through libdbus's own wire format; and the
// introspection data the object tree serves.

import DBus
import Testing

/// Appends the values to a signal, marshals it, reads it back and returns
/// its arguments; nil when they do not fit.
private func roundTrip(
  _ values: [DBusValue], _ signature: String? = nil
)
  -> [DBusValue]?
{
  guard
    let bytes = DBusWireMessage.signal(
      path: "/test", interface: "test.Encoding", member: "Values",
      arguments: values, signature: signature)
  else { return nil }
  return DBusWireMessage.messages(in: bytes).first?.message.arguments
}

@Suite("D-Bus encoding")
struct DBusEncodingTests {
  @Test("A signature splits into its complete types")
  func completeTypes() {
    #expect(
      DBusSignature.completeTypes(in: "sa{sv}as(ib)a(sib)v")?.map(String.init)
        == ["s", "a{sv}", "as", "(ib)", "a(sib)", "v"])
    #expect(DBusSignature.completeTypes(in: "")?.isEmpty == true)
    for bad in ["a", "(", "()", "{sv}", "a{vs}", "a{s}", "z", "(s", "a{sv"] {
      #expect(DBusSignature.completeTypes(in: bad) == nil, "\(bad)")
    }
  }

  @Test("Structures, arrays, dictionaries and variants survive the wire")
  func containers() throws {
    let battery: DBusValue = .array([
      .structure([.string("left"), .int32(80), .boolean(false)]),
      .structure([.string("case"), .int32(35), .boolean(true)]),
    ])
    let properties: DBusValue = .dictionary([
      .string("Battery"): .variant(.typed(signature: "a(sib)", battery)),
      .string("Buds"): .variant(.typed(signature: "as", .array([]))),
      .string("Name"): .variant(.string("Buds")),
    ])
    let managed: DBusValue = .dictionary([
      .objectPath("/a/b"): .dictionary([.string("x.Y"): properties])
    ])
    let read = try #require(
      roundTrip([battery, properties, managed], "a(sib)a{sv}a{oa{sa{sv}}}"))
    #expect(read.count == 3)
    #expect(read[0] == battery)
    let readProperties = try #require(read[1].stringKeyedDictionary)
    #expect(readProperties["Battery"]?.unwrapped == battery)
    #expect(readProperties["Buds"]?.array?.isEmpty == true)
    #expect(readProperties["Name"]?.string == "Buds")
    let objects = try #require(read[2].dictionary)
    #expect(objects[.objectPath("/a/b")]?.stringKeyedDictionary?["x.Y"] != nil)
  }

  @Test("Signatures are inferred, and an empty array needs one")
  func inferred() throws {
    #expect(DBusValue.array([]).inferredSignature == nil)
    #expect(DBusValue.dictionary([:]).inferredSignature == "a{sv}")
    #expect(
      DBusValue.structure([.string("a"), .uint32(1)]).inferredSignature
        == "(su)")
    #expect(roundTrip([.array([])]) == nil)
    let read = try #require(
      roundTrip([.typed(signature: "au", .array([])), .uint32(7)]))
    #expect(read == [.array([]), .uint32(7)])
  }

  @Test("Values that do not fit the signature are refused")
  func mismatches() {
    #expect(roundTrip([.int32(1)], "s") == nil)
    #expect(roundTrip([.string("a")], "ss") == nil)
    #expect(roundTrip([.array([.string("a")])], "ai") == nil)
    #expect(roundTrip([.structure([.string("a")])], "(si)") == nil)
    #expect(roundTrip([.objectPath("not a path")], "o") == nil)
    #expect(roundTrip([.signature("a{")], "g") == nil)
    // Inside an array or a variant, where libdbus would abort on a
    // container left half-filled: refused before libdbus sees it.
    #expect(
      roundTrip([.array([.structure([.string("a"), .string("b")])])], "a(si)")
        == nil)
    #expect(
      roundTrip([.dictionary([.string("k"): .variant(.array([]))])], "a{sv}")
        == nil)
    #expect(roundTrip([.array([.structure([])])]) == nil)
    #expect(
      roundTrip([.dictionary([.variant(.string("k")): .string("v")])]) == nil)
  }

  @Test("An interface's introspection element")
  func introspection() {
    let interface = DBusInterface(
      name: "test.Thing1",
      methods: [
        .init(
          "Do", inputs: [.init("what", "s")], outputs: [.init("done", "b")],
          summary: "Does <it> & more -- twice.")
      ],
      properties: [.init("Level", "i", isWritable: true, summary: "A level.")],
      signals: [
        .init("Done", arguments: [.init("what", "s")], summary: "Done.")
      ]
    )
    #expect(
      interface.introspectionElement(withSummaries: true) == """
          <interface name="test.Thing1">
            <!-- Does &lt;it&gt; &amp; more - - twice. -->
            <method name="Do">
              <arg name="what" type="s" direction="in"/>
              <arg name="done" type="b" direction="out"/>
            </method>
            <!-- Done. -->
            <signal name="Done">
              <arg name="what" type="s"/>
            </signal>
            <!-- A level. -->
            <property name="Level" type="i" access="readwrite"/>
          </interface>
        """)
  }
}
