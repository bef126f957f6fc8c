// The picker an app shows (ASAccessorySession.showPicker), answered end to
// end with acctl pair in a real terminal: renamed, cancelled, answered by
// a script, and filtered by the app. PickerTests.swift has the terminal.

import AccessoryControl
import Foundation
import TestSupport
import Testing

/// `acctl pair` answering an app's picker, driven through tmux.
@Suite(
  "acctl pair answers an app's picker, in a terminal",
  .enabled(
    if: tmuxPath != nil || isCI,
    "tmux is not installed (scripts/install-dependencies test installs it)"))
struct AppPickerTests {
  /// An app's picker: answered in the terminal with a new name, cancelled
  /// with q and Ctrl-C, shown empty, and answered by `--select`.
  @Test(
    "An app's picker is answered in the terminal, cancelled, and by a script",
    .timeLimit(.minutes(4)))
  func appPicker() async throws {
    try await withHeadsets(extra: [
      MockDevice(address: "AA:BB:CC:DD:EE:07", name: "Lamp")
    ]) { rig in try await appPicker(rig) }
  }

  /// The body of ``appPicker()``.
  private func appPicker(_ rig: Rig) async throws {
    let app = try ControlClient(path: rig.daemon.socketPath)
    let events = try await EventReader.subscribe(
      socketPath: rig.daemon.socketPath)
    let terminal = try Terminal.start(for: rig)
    defer { terminal.stop() }
    let buds: JSONValue = [
      "name": "My Buds",
      "descriptor": [
        "bluetoothCompanyIdentifier": 76, "bluetoothNameSubstring": "Buds",
      ],
      "setupOptions": ["rename"],
    ]

    // The picker lists only what the app's items match, asks for a name
    // because the item allows renaming, and answers the app.
    _ = try await app.request("picker.show", params: ["items": [buds]])
    let picker = try await terminal.run(["pair"])
    let screen = try await picker.waitFor("the app's picker") {
      $0.contains("Set up an accessory for: My Buds")
        && $0.contains("Studio Buds") && $0.hasSuffix("\n>")
    }
    #expect(!screen.contains("Travel Phones"))
    #expect(!screen.contains("Lamp"))
    let number = try PickerScreen.number(of: "Studio Buds", on: screen)
    let done = try await picker.setUp(
      number, offering: "Studio Buds", typing: "Left Buds",
      address: budsAddress)
    #expect(done.contains("Left Buds (\(budsAddress))\n"))
    #expect(done.contains("EXIT=0"))
    #expect(
      try await events.setupEvents(count: 5) == [
        "pickerDidPresent", "pickerSetupPairing", "pickerSetupRename",
        "accessoryAdded \(budsAddress) Left Buds", "pickerDidDismiss",
      ])

    // q cancels the app's picker: the app hears it.
    _ = try await app.request("picker.show", params: ["items": [buds]])
    let cancelled = try await terminal.run(["pair"])
    try await cancelled.waitFor("the app's picker") {
      $0.contains("Set up an accessory for: My Buds") && $0.hasSuffix("\n>")
    }
    try await cancelled.press(["q", "Enter"])
    let ended = try await cancelled.waitFor("acctl to end") {
      $0.contains("EXIT=")
    }
    #expect(ended.contains("Cancelled.\nEXIT=1"))
    #expect(
      try await events.setupEvents(count: 2) == [
        "pickerDidPresent", "pickerDidDismiss",
      ])
    #expect(
      try await app.request("picker.pending", params: nil)["picker"] == .null)

    // While nothing matches, the picker says it is looking; Ctrl-C cancels
    // too.
    let nothing: JSONValue = [
      "name": "Watch", "descriptor": ["bluetoothCompanyIdentifier": 1],
    ]
    _ = try await app.request("picker.show", params: ["items": [nothing]])
    let empty = try await terminal.run(["pair"])
    try await empty.waitFor("the empty picker") {
      $0.contains("Set up an accessory for: Watch")
        && $0.contains("Looking for accessories…") && $0.hasSuffix("\n>")
    }
    try await empty.press(["C-c"])
    #expect(
      try await empty.waitFor("acctl to end") { $0.contains("EXIT=") }
        .contains("Cancelled.\nEXIT=1"))
    #expect(
      try await events.setupEvents(count: 2) == [
        "pickerDidPresent", "pickerDidDismiss",
      ])

    // A script answers with --select, without a terminal.
    let phones: JSONValue = [
      "name": "Phones",
      "descriptor": [
        "bluetoothCompanyIdentifier": 76, "bluetoothNameSubstring": "Phones",
      ],
    ]
    _ = try await app.request("picker.show", params: ["items": [phones]])
    let answered = try await rig.json(["pair", "--select", phonesAddress])
    #expect(answered["displayName"] == "Travel Phones")
    #expect(
      try await events.setupEvents(count: 4) == [
        "pickerDidPresent", "pickerSetupPairing",
        "accessoryAdded \(phonesAddress) Travel Phones", "pickerDidDismiss",
      ])
  }

  /// An app's picker that filters discovery results
  /// (`ASPickerDisplaySettings.Options.filterDiscoveryResults`): the
  /// picker lists only what the app offers, by the app's names, follows
  /// its changes, and ends when the app finishes discovery offering none;
  /// `--select` takes only an offered device.
  @Test(
    "An app's picker that filters discovery results lists what it offers",
    .timeLimit(.minutes(4)))
  func filteredAppPicker() async throws {
    try await withHeadsets { rig in try await filteredAppPicker(rig) }
  }

  /// The body of ``filteredAppPicker()``.
  private func filteredAppPicker(_ rig: Rig) async throws {
    let app = try ControlClient(path: rig.daemon.socketPath)
    let terminal = try Terminal.start(for: rig)
    defer { terminal.stop() }
    let session = "test-session"
    let headphones: JSONValue = [
      "name": "Headphones",
      "descriptor": ["bluetoothCompanyIdentifier": 76],
      "setupOptions": ["rename"],
    ]
    func show() async throws {
      _ = try await app.request(
        "picker.show",
        params: [
          "session": .string(session), "items": [headphones],
          "filterDiscoveryResults": true,
        ])
    }
    func offer(_ offered: [(address: String, name: String)]) async throws {
      _ = try await app.request(
        "picker.update",
        params: [
          "session": .string(session),
          "items": .array(
            offered.map { ["address": .string($0), "name": .string($1)] }),
        ])
    }

    // Until the app offers something, the picker is looking, though both
    // headsets match the app's item.
    try await show()
    let picker = try await terminal.run(["pair"])
    var screen = try await picker.waitFor("the empty filtered picker") {
      $0.contains("Set up an accessory for: Headphones")
        && $0.contains("Looking for accessories…") && $0.hasSuffix("\n>")
    }
    #expect(!screen.contains("Studio Buds"))
    #expect(!screen.contains("Travel Phones"))

    // The app offers the buds by a name of its own: they show by it, with
    // the first number; the phones, discovered but not offered, do not.
    try await offer([(budsAddress, "Offered Name")])
    screen = try await picker.waitFor("the offered device") {
      $0.contains("Offered Name  \(budsAddress)") && $0.hasSuffix("\n>")
    }
    #expect(try PickerScreen.number(of: "Offered Name", on: screen) == 1)
    #expect(!screen.contains("Studio Buds"))
    #expect(!screen.contains("Travel Phones"))
    #expect(!screen.contains("Looking for accessories…"))

    // The list follows the app's changes; numbers stay with devices.
    try await offer([
      (phonesAddress, "Offered Phones"), (budsAddress, "Offered Name"),
    ])
    screen = try await picker.waitFor("the second offered device") {
      $0.contains("Offered Phones  \(phonesAddress)")
    }
    #expect(try PickerScreen.number(of: "Offered Name", on: screen) == 1)
    #expect(try PickerScreen.number(of: "Offered Phones", on: screen) == 2)
    try await offer([(budsAddress, "Offered Name")])
    screen = try await picker.waitFor("the phones to go") {
      !$0.contains("Offered Phones") && $0.contains("Offered Name")
    }

    // The name prompt offers the app's name; Enter keeps it.
    let done = try await picker.setUp(
      1, offering: "Offered Name", typing: "", address: budsAddress)
    #expect(done.contains("Offered Name (\(budsAddress))\n"), "\(done)")
    #expect(done.contains("EXIT=0"))
    guard case .array(let listed)? = try await rig.json(["list"])["accessories"]
    else {
      Issue.record("acctl list printed no accessories")
      return
    }
    #expect(listed.count == 1)
    #expect(listed.first?["address"] == .string(budsAddress))
    #expect(listed.first?["displayName"] == "Offered Name")
    #expect(
      try await app.request("picker.pending", params: nil)["picker"] == .null)

    // --select takes only a device the app offers: the daemon's refusal is
    // shown, with exit status 3; once offered, it takes the app's name.
    try await show()
    let refused = try await rig.daemon.acctl([
      "pair", "--select", phonesAddress,
    ])
    #expect(refused.status == 3, "\(refused)")
    #expect(refused.stderr.hasPrefix("Error: "), "\(refused)")
    #expect(refused.stderr.contains(phonesAddress), "\(refused)")
    try await offer([(phonesAddress, "Offered Phones")])
    let answered = try await rig.json(["pair", "--select", phonesAddress])
    #expect(answered["displayName"] == "Offered Phones")

    // The app finishes discovery having offered nothing: the picker ends
    // with a discovery timeout, and acctl says so.
    try await show()
    let timedOut = try await terminal.run(["pair"])
    try await timedOut.waitFor("the empty filtered picker") {
      $0.contains("Looking for accessories…") && $0.hasSuffix("\n>")
    }
    _ = try await app.request(
      "picker.finishDiscovery", params: ["session": .string(session)])
    let ended = try await timedOut.waitFor("acctl to end") {
      $0.contains("EXIT=")
    }
    #expect(
      ended.contains(
        "Error: the app's picker timed out: the app offered no accessory "
          + "(discoveryTimeout)\nEXIT=1"),
      "\(ended)")
  }
}

// MARK: - The rig

/// Runs a picker test with both headsets advertising Apple's manufacturer
/// data (and any other devices) once the daemon sees them.
private func withHeadsets(
  extra: [MockDevice] = [], _ body: (Rig) async throws -> Void
) async throws {
  let headsets = [
    (budsAddress, "Studio Buds"), (phonesAddress, "Travel Phones"),
  ]
  .map { address, name in
    MockDevice(
      address: address, name: name,
      properties: [("ManufacturerData", .manufacturerData([0x004C: [0x07]]))])
  }
  try await withBlueZRig(devices: headsets + extra, hostAddresses: []) {
    rig, _ in
    for address in [phonesAddress, budsAddress] {
      _ = try await rig.eventuallyDiscovered(address) {
        $0["manufacturerData"]?["76"] != nil
      }
    }
    try await body(rig)
  }
}
