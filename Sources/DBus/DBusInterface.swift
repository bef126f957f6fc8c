// What an interface a program serves looks like: its methods, properties
// and signals with their signatures, as introspection data describes
// them. The object tree answers `Introspect` from it, and the project's
// installed interface files are written from it.

/// The description of one D-Bus interface an object serves.
package struct DBusInterface: Sendable, Hashable {
  /// One named argument of a method or signal.
  package struct Argument: Sendable, Hashable {
    /// Its name, as introspection shows it.
    package var name: String
    /// Its single complete type, such as `a{sv}`.
    package var signature: String

    /// Creates an argument.
    package init(_ name: String, _ signature: String) {
      self.name = name
      self.signature = signature
    }
  }

  /// A method: what it takes and what it answers with.
  package struct Method: Sendable, Hashable {
    /// Its name, such as `ChooseOutput`.
    package var name: String
    /// Its arguments, in order.
    package var inputs: [Argument]
    /// The values of its reply, in order.
    package var outputs: [Argument]
    /// One line on what it does, for the interface file.
    package var summary: String

    /// Creates a method.
    package init(
      _ name: String, inputs: [Argument] = [], outputs: [Argument] = [],
      summary: String
    ) {
      self.name = name
      self.inputs = inputs
      self.outputs = outputs
      self.summary = summary
    }

    /// The signature of its arguments.
    package var inputSignature: String { inputs.map(\.signature).joined() }
    /// The signature of its reply.
    package var outputSignature: String { outputs.map(\.signature).joined() }
  }

  /// A property.
  package struct Property: Sendable, Hashable {
    /// Its name, such as `Output`.
    package var name: String
    /// Its single complete type.
    package var signature: String
    /// Whether `Set` may change it.
    package var isWritable: Bool
    /// One line on what it holds, for the interface file.
    package var summary: String

    /// Creates a property.
    package init(
      _ name: String, _ signature: String, isWritable: Bool = false,
      summary: String
    ) {
      self.name = name
      self.signature = signature
      self.isWritable = isWritable
      self.summary = summary
    }
  }

  /// A signal.
  package struct Signal: Sendable, Hashable {
    /// Its name, such as `RouteChanged`.
    package var name: String
    /// Its arguments, in order.
    package var arguments: [Argument]
    /// One line on when it is sent, for the interface file.
    package var summary: String

    /// Creates a signal.
    package init(_ name: String, arguments: [Argument], summary: String) {
      self.name = name
      self.arguments = arguments
      self.summary = summary
    }

    /// The signature of its arguments.
    package var signature: String { arguments.map(\.signature).joined() }
  }

  /// The interface's name, such as `io.github.accessoryd.Route1`.
  package var name: String
  /// Its methods.
  package var methods: [Method]
  /// Its properties.
  package var properties: [Property]
  /// Its signals.
  package var signals: [Signal]

  /// Creates an interface description.
  package init(
    name: String, methods: [Method] = [], properties: [Property] = [],
    signals: [Signal] = []
  ) {
    self.name = name
    self.methods = methods
    self.properties = properties
    self.signals = signals
  }

  /// The property of this name.
  package func property(_ name: String) -> Property? {
    properties.first { $0.name == name }
  }

  /// The method of this name.
  package func method(_ name: String) -> Method? {
    methods.first { $0.name == name }
  }

  /// The signal of this name.
  package func signal(_ name: String) -> Signal? {
    signals.first { $0.name == name }
  }

  /// The interface as an `<interface>` element of introspection data.
  ///
  /// - Parameter withSummaries: Whether each member carries its summary as
  ///   a `<!-- comment -->`, as the installed interface files do.
  package func introspectionElement(withSummaries: Bool = false) -> String {
    var lines = ["  <interface name=\"\(name)\">"]
    func comment(_ text: String) {
      if withSummaries { lines.append("    <!-- \(Self.escaped(text)) -->") }
    }
    for method in methods {
      comment(method.summary)
      if method.inputs.isEmpty, method.outputs.isEmpty {
        lines.append("    <method name=\"\(method.name)\"/>")
        continue
      }
      lines.append("    <method name=\"\(method.name)\">")
      for argument in method.inputs {
        lines.append(
          "      <arg name=\"\(argument.name)\" type=\"\(argument.signature)\""
            + " direction=\"in\"/>")
      }
      for argument in method.outputs {
        lines.append(
          "      <arg name=\"\(argument.name)\" type=\"\(argument.signature)\""
            + " direction=\"out\"/>")
      }
      lines.append("    </method>")
    }
    for signal in signals {
      comment(signal.summary)
      lines.append("    <signal name=\"\(signal.name)\">")
      for argument in signal.arguments {
        lines.append(
          "      <arg name=\"\(argument.name)\" type=\"\(argument.signature)\"/>"
        )
      }
      lines.append("    </signal>")
    }
    for property in properties {
      comment(property.summary)
      lines.append(
        "    <property name=\"\(property.name)\" type=\"\(property.signature)\""
          + " access=\"\(property.isWritable ? "readwrite" : "read")\"/>")
    }
    lines.append("  </interface>")
    return lines.joined(separator: "\n")
  }

  /// Text made safe inside an XML comment or attribute.
  static func escaped(_ text: String) -> String {
    var result = ""
    var previous: Character?
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "-" where previous == "-": result += " -"
      default: result.append(character)
      }
      previous = character
    }
    return result
  }

  /// The document type every introspection document starts with.
  package static let doctype = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
    """

  // MARK: - The standard interfaces

  /// `org.freedesktop.DBus.Introspectable`.
  package static let introspectable = DBusInterface(
    name: "org.freedesktop.DBus.Introspectable",
    methods: [
      Method(
        "Introspect", outputs: [Argument("xml_data", "s")],
        summary: "The object's introspection data.")
    ])

  /// `org.freedesktop.DBus.Peer`, which libdbus answers itself.
  package static let peer = DBusInterface(
    name: "org.freedesktop.DBus.Peer",
    methods: [
      Method("Ping", summary: "Answers at once."),
      Method(
        "GetMachineId", outputs: [Argument("machine_uuid", "s")],
        summary: "The machine's identifier."),
    ])

  /// `org.freedesktop.DBus.Properties`.
  package static let properties = DBusInterface(
    name: "org.freedesktop.DBus.Properties",
    methods: [
      Method(
        "Get",
        inputs: [
          Argument("interface_name", "s"), Argument("property_name", "s"),
        ],
        outputs: [Argument("value", "v")], summary: "One property."),
      Method(
        "GetAll", inputs: [Argument("interface_name", "s")],
        outputs: [Argument("props", "a{sv}")], summary: "Every property."),
      Method(
        "Set",
        inputs: [
          Argument("interface_name", "s"), Argument("property_name", "s"),
          Argument("value", "v"),
        ], summary: "Changes a writable property."),
    ],
    signals: [
      Signal(
        "PropertiesChanged",
        arguments: [
          Argument("interface_name", "s"),
          Argument("changed_properties", "a{sv}"),
          Argument("invalidated_properties", "as"),
        ], summary: "Properties changed.")
    ])

  /// `org.freedesktop.DBus.ObjectManager`.
  package static let objectManager = DBusInterface(
    name: "org.freedesktop.DBus.ObjectManager",
    methods: [
      Method(
        "GetManagedObjects",
        outputs: [
          Argument("object_paths_interfaces_and_properties", "a{oa{sa{sv}}}")
        ],
        summary: "Every object below, its interfaces and their properties.")
    ],
    signals: [
      Signal(
        "InterfacesAdded",
        arguments: [
          Argument("object_path", "o"),
          Argument("interfaces_and_properties", "a{sa{sv}}"),
        ], summary: "An object, or interfaces of one, appeared."),
      Signal(
        "InterfacesRemoved",
        arguments: [
          Argument("object_path", "o"), Argument("interfaces", "as"),
        ],
        summary: "An object, or interfaces of one, went."),
    ])
}
