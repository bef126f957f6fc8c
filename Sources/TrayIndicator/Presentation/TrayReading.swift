// What the tray reads from accessoryd's session D-Bus API, in one piece:
// the presentation is made from it alone.

import DBus
import SessionBusInterfaces

/// accessoryd's state as the tray last read it.
package struct TrayReading: Sendable, Hashable {
  /// An accessory, as its `Accessory1` object shows it.
  package struct Accessory: Sendable, Hashable {
    /// Its Bluetooth address.
    package var address: String
    /// Its display name.
    package var name: String
    /// Whether it is registered.
    package var isRegistered: Bool
    /// `inEar`, `onHead`, `overTheEar`, `offHead`, or empty when unknown.
    package var placement: String
    /// Its output's name; empty when it has none, as when not connected.
    package var output: String
    /// Each part's charge, when accessoryd reads it.
    package var battery: [BatteryPart]

    /// Creates an accessory.
    package init(
      address: String, name: String, isRegistered: Bool = true,
      placement: String = "", output: String = "", battery: [BatteryPart] = []
    ) {
      self.address = address
      self.name = name
      self.isRegistered = isRegistered
      self.placement = placement
      self.output = output
      self.battery = battery
    }

    /// Whether it is connected: its output is on the sound server.
    package var isConnected: Bool { !output.isEmpty }

    /// Whether it is worn, as far as accessoryd knows.
    package var isWorn: Bool {
      ["inEar", "onHead", "overTheEar"].contains(placement)
    }
  }

  /// An output, as `Daemon1.ListOutputs` gives it.
  package struct Output: Sendable, Hashable {
    /// Its name on the sound server.
    package var name: String
    /// Its description, for people.
    package var description: String
    /// Whether the person chose it.
    package var isPersonsChoice: Bool
    /// Whether it can play now.
    package var isAvailable: Bool

    /// Creates an output.
    package init(
      name: String, description: String, isPersonsChoice: Bool = false,
      isAvailable: Bool = true
    ) {
      self.name = name
      self.description = description
      self.isPersonsChoice = isPersonsChoice
      self.isAvailable = isAvailable
    }
  }

  /// Whether accessoryd answered; nothing else is known when it did not.
  package var isDaemonRunning: Bool
  /// The route's output's name, or empty.
  package var output: String
  /// The route's output's description, or empty.
  package var outputDescription: String
  /// Whether taking off the headphones that play pauses what plays.
  package var pausesWhenTakenOff: Bool
  /// The accessories, by address.
  package var accessories: [Accessory]
  /// The outputs.
  package var outputs: [Output]
  /// Why the audio is where it is, line by line (`Route1.Explain`).
  package var explanation: [String]

  /// Creates a reading.
  package init(
    isDaemonRunning: Bool = true, output: String = "",
    outputDescription: String = "", pausesWhenTakenOff: Bool = true,
    accessories: [Accessory] = [], outputs: [Output] = [],
    explanation: [String] = []
  ) {
    self.isDaemonRunning = isDaemonRunning
    self.output = output
    self.outputDescription = outputDescription
    self.pausesWhenTakenOff = pausesWhenTakenOff
    self.accessories = accessories
    self.outputs = outputs
    self.explanation = explanation
  }

  /// What the tray shows while accessoryd does not answer.
  package static let daemonNotRunning = TrayReading(isDaemonRunning: false)
}

extension TrayReading.Accessory {
  /// Reads an accessory from its `Accessory1` properties.
  package init?(properties: [String: DBusValue]) {
    guard let address = properties["Address"]?.string else { return nil }
    self.init(
      address: address, name: properties["Name"]?.string ?? address,
      isRegistered: properties["Registered"]?.bool ?? false,
      placement: properties["Placement"]?.string ?? "",
      output: properties["Output"]?.string ?? "",
      battery: (properties["Battery"]?.array ?? []).compactMap(
        BatteryPart.init(busValue:)))
  }
}

extension TrayReading.Output {
  /// Reads an output from an element of `ListOutputs`'s `a(ssbbbss)`.
  package init?(busValue: DBusValue) {
    guard case .structure(let fields) = busValue.unwrapped, fields.count == 7,
      let name = fields[0].string, let description = fields[1].string
    else { return nil }
    self.init(
      name: name, description: description,
      isPersonsChoice: fields[3].bool ?? false,
      isAvailable: fields[4].bool ?? true)
  }
}
