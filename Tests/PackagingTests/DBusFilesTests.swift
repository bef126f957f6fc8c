// The files the package installs for the session D-Bus API: one interface
// file per interface, written from the interfaces the daemon serves (so
// the two cannot drift), and the activation file that starts the user
// unit.

import DBus
import Foundation
import SessionBusInterfaces
import Testing

private let contrib = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().appendingPathComponent("../../contrib/dbus")
  .standardized

@Suite("The session D-Bus API's installed files")
struct DBusFilesTests {
  @Test(
    "Each interface file is the interface the daemon serves",
    arguments: AccessorydBus.interfaces.map(\.name))
  func interfaceFile(_ name: String) throws {
    let interface = try #require(
      AccessorydBus.interfaces.first { $0.name == name })
    let file = contrib.appendingPathComponent("\(name).xml")
    let expected = AccessorydBus.interfaceFile(for: interface)
    if ProcessInfo.processInfo.environment["ACCESSORYD_WRITE_README"] != nil {
      try expected.write(to: file, atomically: true, encoding: .utf8)
      return
    }
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(
      text == expected,
      """
      contrib/dbus/\(name).xml is not the interface the daemon serves; \
      ACCESSORYD_WRITE_README=1 swift test --filter DBusFilesTests writes it
      """)
    // Every member's signature is one complete type.
    for argument in interface.methods.flatMap({ $0.inputs + $0.outputs })
      + interface.signals.flatMap(\.arguments)
    {
      #expect(
        DBusSignature.completeTypes(in: argument.signature)?.count == 1,
        "\(argument.name): \(argument.signature)")
    }
    for property in interface.properties {
      #expect(
        DBusSignature.completeTypes(in: property.signature)?.count == 1,
        "\(property.name): \(property.signature)")
    }
  }

  @Test("The activation file names the API's bus name and the user unit")
  func activationFile() throws {
    let text = try String(
      contentsOf: contrib.appendingPathComponent(
        "\(AccessorydBus.busName).service"), encoding: .utf8)
    let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(
      lines == [
        "[D-BUS Service]", "Name=\(AccessorydBus.busName)",
        "Exec=/usr/bin/accessoryd", "SystemdService=accessoryd.service",
      ])
  }
}
