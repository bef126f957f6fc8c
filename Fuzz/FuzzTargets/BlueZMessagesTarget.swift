// BlueZ's side of the system bus: D-Bus messages in their wire format,
// decoded as the driver decodes them, then taken in by the tracker of
// BlueZ's objects as the client takes them.

import BlueZ
import DBus

extension FuzzTarget {
  /// D-Bus messages from BlueZ.
  static let bluezMessages = FuzzTarget(
    name: "bluez-messages",
    summary: "D-Bus messages (wire format) from BlueZ: signals and "
      + "GetManagedObjects replies, into the tracker of its objects"
  ) { bytes in
    let tracker = BlueZObjectTracker()
    for wire in DBusWireMessage.messages(in: bytes) {
      switch wire.kind {
      case .signal:
        _ = tracker.handle(wire.message)
      case .methodReturn:
        if let objects = BlueZObjectTracker.parseManagedObjects(
          wire.message.arguments)
        {
          tracker.replaceAll(with: objects, owner: wire.message.sender)
        }
      case .methodCall, .error:
        break
      }
    }
    for device in tracker.devices()
    where BlueZDevice.normalizedAddress(device.address) != device.address {
      return "a device kept with an address not in normal form: "
        + device.address
    }
    _ = tracker.adapters()
    return nil
  }
}
