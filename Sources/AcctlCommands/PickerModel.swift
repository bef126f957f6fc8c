// What acctl's picker shows and where the person is in it: the devices on
// the list with their numbers, the step (choose, name, confirm), what they
// have typed, and the frame that shows all of it.

import AccessoryControl
import AudioAccessoryKit
import FoundationEssentials

/// What the picker offers and how it answers: acctl's own request, made
/// of the descriptor options, or the request an app waits on
/// (`ASAccessorySession.showPicker(for:)`).
struct PickerRequest {
  /// The app's picker, as `picker.pending` names it; nil for acctl's own.
  let pickerID: String?
  /// The lines above the list.
  let header: [String]
  /// The descriptors of `discovery.list` and `discovery.subscribe`; none
  /// lists every device.
  let descriptors: [ASDiscoveryDescriptor]
  /// Whether the person may rename the accessory before it is set up.
  let asksForName: Bool
  /// Whether the app chooses what the picker shows
  /// (`ASPickerDisplaySettings.Options.filterDiscoveryResults`): then the
  /// picker lists only the devices the app offers, by the names it gives.
  let filtersDiscoveryResults: Bool
  /// The accessories the app offered when the request was read; empty
  /// unless it filters discovery results.
  let offered: [OfferedAccessory]

  /// The line that says how to choose.
  static let instructions =
    "Choose an accessory to set up (number, or q to cancel):"

  /// acctl's own request: the devices that match the descriptor options.
  ///
  /// - Parameter descriptor: The descriptor options; nil for every device.
  init(descriptor: ASDiscoveryDescriptor?) {
    pickerID = nil
    header = [Self.instructions]
    descriptors = descriptor.map { [$0] } ?? []
    asksForName = true
    filtersDiscoveryResults = false
    offered = []
  }

  /// The request an app waits on, from `picker.pending`'s `picker`; nil
  /// if it has no items.
  init?(pending: PendingPicker) {
    guard !pending.items.isEmpty else { return nil }
    pickerID = pending.pickerID
    header = [
      "Set up an accessory for: "
        + pending.items.map(\.name).joined(separator: ", "),
      Self.instructions,
    ]
    descriptors = pending.items.map(\.descriptor)
    asksForName = pending.items.contains { $0.setupOptions.contains(.rename) }
    filtersDiscoveryResults = pending.filtersDiscoveryResults
    offered = Self.offered(in: pending)
  }

  /// The accessories a picker from `picker.pending` offers, in the app's
  /// order.
  static func offered(in pending: PendingPicker) -> [OfferedAccessory] {
    pending.offered.map { device in
      OfferedAccessory(
        address: Rendering.canonicalAddress(device.address), name: device.name)
    }
  }

  /// The request that sets up the chosen device: `accessory.pair`, or
  /// `picker.choose` for an app's request.
  ///
  /// - Parameters:
  ///   - address: The device's address.
  ///   - name: The name the person gave it; nil to keep the device's.
  func answer(address: String, name: String?) -> any DaemonRequest {
    guard let pickerID else {
      return AccessoryPairRequest<AccessoryControlDevice.Configuration>(
        address: address, name: name, descriptor: descriptors.first)
    }
    return PickerChooseRequest<AccessoryControlDevice.Configuration>(
      pickerID: pickerID, address: address, name: name)
  }

  /// The request that tells the app its picker was cancelled; nil for
  /// acctl's own request.
  var cancellation: PickerCancelRequest? {
    pickerID.map { PickerCancelRequest(.pickerID($0)) }
  }
}

/// An accessory an app offers in a picker that filters discovery results
/// (`ASDiscoveredDisplayItem`): a discovered device, by the name the app
/// gives it.
struct OfferedAccessory: Equatable {
  /// The device's address in canonical form.
  let address: String
  /// The name the picker shows for it.
  let name: String
}

/// The picker's state: the devices on the list, the step the person is
/// at and what they have typed.
///
/// A device keeps its number while the picker runs, even when it goes
/// away and comes back, so a number typed while the list changes still
/// means the device it named on the screen.
///
/// When the app filters discovery results, the list holds only the
/// devices that are both discovered and offered by the app, under the
/// names it offers them by; a device takes its number when it first
/// shows on the list.
struct PickerModel {
  /// A device on the list.
  struct Entry {
    /// Its number on the list.
    var number: Int
    /// Its record, as the daemon gives it, with the name the app offers
    /// it by as its `displayName` when the app filters discovery results.
    var device: JSONValue

    /// Its address in canonical form.
    var address: String {
      Rendering.text(device["address"]).map(Rendering.canonicalAddress) ?? "?"
    }

    /// The name the list shows for it: the app's, when the app filters
    /// discovery results, or the one the host shows.
    var displayName: String {
      Rendering.text(device["displayName"]) ?? address
    }
  }

  /// Where the person is.
  enum Step {
    /// Typing a number.
    case choosing
    /// Typing a name for the chosen device.
    case naming(Entry)
    /// Answering whether to set it up under the name.
    case confirming(Entry, name: String)
    /// Waiting for the daemon to set it up.
    case settingUp(Entry, name: String)
  }

  /// What the picker must do after a key.
  enum Action: Equatable {
    /// Nothing but draw again.
    case none
    /// Stop without setting anything up.
    case cancel
    /// Set the device up; `name` is nil to keep the device's own.
    case setUp(address: String, name: String?)
  }

  /// The request the picker answers.
  let request: PickerRequest
  /// The name `--name` gave, offered instead of the device's.
  let presetName: String?
  /// The devices discovered that match the request, by address.
  private var devices: [String: JSONValue] = [:]
  /// The names the app offers devices by, by address, when it filters
  /// discovery results.
  private var offered: [String: String]
  /// The number of each device listed, including those gone.
  private var numbers: [String: Int] = [:]
  /// The last name of each device listed, for the numbers of those gone.
  private var names: [String: String] = [:]
  /// The number the next new device takes.
  private var nextNumber = 1
  /// Where the person is.
  private(set) var step = Step.choosing
  /// What the person has typed on the prompt, as UTF-8.
  private var typed: [UInt8] = []
  /// A note above the prompt, such as why a number was refused.
  private var message: String?

  /// Creates a picker with an empty list and the accessories the request
  /// offers.
  init(request: PickerRequest, presetName: String?) {
    self.request = request
    self.presetName = presetName
    offered = [:]
    replaceOffered(request.offered)
  }

  // MARK: - Devices

  /// The devices on the list, by number.
  var entries: [Entry] {
    devices.compactMap { address, device in
      guard let name = listedName(address, device),
        let number = numbers[address]
      else { return nil }
      guard request.filtersDiscoveryResults,
        case .object(var fields) = device
      else { return Entry(number: number, device: device) }
      fields["displayName"] = .string(name)
      return Entry(number: number, device: .object(fields))
    }
    .sorted { $0.number < $1.number }
  }

  /// The name a device is listed by, or nil if it is not on the list: the
  /// app's for a device it offers, when it filters discovery results, or
  /// the one the host shows.
  private func listedName(_ address: String, _ device: JSONValue) -> String? {
    guard request.filtersDiscoveryResults else {
      return Rendering.text(device["displayName"]) ?? address
    }
    return offered[address]
  }

  /// Replaces the list with `discovery.list`'s devices, keeping those that
  /// match; new devices are numbered in the order given.
  mutating func replaceDevices(_ list: [JSONValue]) {
    devices = [:]
    for device in list where Rendering.bool(device["matches"]) != false {
      add(device)
    }
  }

  /// Applies a `discovery` event: a device added, changed or removed.
  mutating func apply(_ event: JSONValue) {
    guard Rendering.text(event["kind"]) == "discovery",
      let device = event["device"],
      let text = Rendering.text(device["address"])
    else { return }
    let address = Rendering.canonicalAddress(text)
    if Rendering.text(event["change"]) == "removed"
      || Rendering.bool(device["matches"]) == false
    {
      devices[address] = nil
    } else {
      add(device)
    }
  }

  /// Replaces the accessories the app offers, when it filters discovery
  /// results; those discovered for the first time on the list are
  /// numbered in the app's order.
  mutating func replaceOffered(_ list: [OfferedAccessory]) {
    offered = [:]
    for accessory in list where offered[accessory.address] == nil {
      offered[accessory.address] = accessory.name
      numberIfListed(accessory.address)
    }
  }

  /// Records a discovered device, or updates it.
  private mutating func add(_ device: JSONValue) {
    guard let text = Rendering.text(device["address"]) else { return }
    let address = Rendering.canonicalAddress(text)
    devices[address] = device
    numberIfListed(address)
  }

  /// Notes the name of a device on the list; one listed for the first
  /// time takes the next number.
  private mutating func numberIfListed(_ address: String) {
    guard let device = devices[address],
      let name = listedName(address, device)
    else { return }
    if numbers[address] == nil {
      numbers[address] = nextNumber
      nextNumber += 1
    }
    names[address] = name
  }

  // MARK: - Keys

  /// Handles a key and says what to do next.
  mutating func handle(_ key: PickerKey) -> Action {
    if case .settingUp = step { return .none }
    switch key {
    case .interrupt:
      return .cancel
    case .endOfFile:
      return typed.isEmpty ? .cancel : .none
    case .text(let bytes):
      typed += bytes
    case .backspace:
      // Drop the last character's continuation bytes, then its first.
      while let last = typed.last, last & 0xC0 == 0x80 { typed.removeLast() }
      if !typed.isEmpty { typed.removeLast() }
    case .clearLine:
      typed = []
    case .escape:
      if case .choosing = step { break }
      step = .choosing
      typed = []
      message = nil
    case .enter:
      let line = String(decoding: typed, as: UTF8.self)
        .trimmingSpaces
      typed = []
      return submit(line)
    }
    return .none
  }

  /// Handles a line the person entered.
  private mutating func submit(_ line: String) -> Action {
    message = nil
    switch step {
    case .choosing:
      return choose(line)
    case .naming(let entry):
      step = .confirming(entry, name: line.isEmpty ? defaultName(entry) : line)
    case .confirming(let entry, let name):
      switch line.lowercased() {
      case "", "y", "yes":
        step = .settingUp(entry, name: name)
        // The name confirmed, always: left out, the daemon would keep the
        // one an accessory paired before was given.
        return .setUp(address: entry.address, name: name)
      case "n", "no":
        step = .choosing
      case "q", "quit":
        return .cancel
      default:
        message = "Answer y or n."
      }
    case .settingUp:
      break
    }
    return .none
  }

  /// Handles a number typed on the list.
  private mutating func choose(_ line: String) -> Action {
    guard !line.isEmpty else { return .none }
    if ["q", "quit"].contains(line.lowercased()) { return .cancel }
    guard let number = Int(line) else {
      message = "Type the number of an accessory, or q to cancel."
      return .none
    }
    if let entry = entries.first(where: { $0.number == number }) {
      step =
        request.asksForName
        ? .naming(entry) : .confirming(entry, name: defaultName(entry))
    } else if let gone = numbers.first(where: { $0.value == number })?.key {
      message = "\(number) (\(names[gone] ?? gone)) is no longer on the list."
    } else {
      message = "There is no \(number) on the list."
    }
    return .none
  }

  /// The name offered for a device: `--name`'s, or the one it is listed
  /// by.
  private func defaultName(_ entry: Entry) -> String {
    presetName ?? entry.displayName
  }

  /// Goes back to the list after the daemon refused to set the device up.
  ///
  /// - Parameter reason: The daemon's message.
  mutating func setUpFailed(_ reason: String) {
    step = .choosing
    typed = []
    message = "Error: " + reason
  }

  // MARK: - Drawing

  /// The screen: the header, the numbered list, a note, what was answered
  /// so far and the prompt with what is typed, each line cut to the width
  /// and the list cut to the height.
  func frame(columns: Int, rows: Int) -> [String] {
    let shown = entries
    var list =
      shown.isEmpty
      ? ["Looking for accessories…"]
      : Rendering.devices(
        shown.map(\.device), explainMismatches: false,
        numbers: shown.map(\.number)
      ).split(separator: "\n").map(String.init)
    var below: [String] = [""]
    if let message { below.append(message) }
    below += conversation
    let fixed = request.header.count + 1 + below.count
    if fixed + list.count > rows, list.count > 1 {
      let fitting = max(1, rows - fixed - 1)
      let hidden = list.count - fitting
      list = Array(list.prefix(fitting))
      list.append("  … and \(hidden) more; a taller window shows them")
    }
    let lines = request.header + [""] + list + below
    let width = max(10, columns - 1)
    return lines.map { $0.count > width ? String($0.prefix(width)) : $0 }
  }

  /// The answers so far and the prompt, with what is typed.
  private var conversation: [String] {
    let typing = String(decoding: typed, as: UTF8.self)
    func choice(_ entry: Entry) -> String { "> \(entry.number)" }
    func naming(_ entry: Entry) -> String {
      "Name [\(defaultName(entry))]: "
    }
    func confirming(_ entry: Entry, _ name: String) -> String {
      "Set up '\(name)' (\(entry.address))? [Y/n]: "
    }
    switch step {
    case .choosing:
      return ["> " + typing]
    case .naming(let entry):
      return [choice(entry), naming(entry) + typing]
    case .confirming(let entry, let name):
      var lines = [choice(entry)]
      if request.asksForName { lines.append(naming(entry) + name) }
      return lines + [confirming(entry, name) + typing]
    case .settingUp(let entry, let name):
      var lines = [choice(entry)]
      if request.asksForName { lines.append(naming(entry) + name) }
      return lines + [confirming(entry, name) + "y", "Setting up '\(name)'…"]
    }
  }
}
