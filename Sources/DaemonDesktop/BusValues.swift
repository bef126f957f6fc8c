// The session D-Bus API speaks the control protocol's requests: its
// a{sv} arguments become the JSON members a request takes, and a control
// error becomes a D-Bus error of the same meaning.

import AccessoryControl
import DBus
import SessionBusInterfaces

extension JSONValue {
  /// The JSON a D-Bus value stands for: strings and paths as strings,
  /// numbers as numbers, arrays as arrays, string-keyed dictionaries as
  /// objects; nil for what JSON has no form of (file descriptors, structs,
  /// dictionaries keyed by other types).
  init?(busValue: DBusValue) {
    switch busValue.unwrapped {
    case .string(let text), .objectPath(let text), .signature(let text):
      self = .string(text)
    case .boolean(let value):
      self = .bool(value)
    case .double(let value):
      self = .number(value)
    case .array, .bytes:
      var elements: [JSONValue] = []
      for element in busValue.array ?? [] {
        guard let json = JSONValue(busValue: element) else { return nil }
        elements.append(json)
      }
      self = .array(elements)
    case .dictionary:
      guard let entries = busValue.stringKeyedDictionary else { return nil }
      var members: [String: JSONValue] = [:]
      for (key, value) in entries {
        guard let json = JSONValue(busValue: value) else { return nil }
        members[key] = json
      }
      self = .object(members)
    default:
      guard let integer = busValue.integer else { return nil }
      self = .number(Double(integer))
    }
  }
}

extension DBusFailure {
  /// The D-Bus error of a control error: bad arguments are
  /// `org.freedesktop.DBus.Error.InvalidArgs`, the accessory errors
  /// Apple's framework names are the API's own, anything else `Failed`.
  init(_ error: ControlError) {
    let name: String
    switch error.code {
    case .invalidParams, .invalidRequest, .parseError:
      name = "org.freedesktop.DBus.Error.InvalidArgs"
    case .methodNotFound:
      name = "org.freedesktop.DBus.Error.UnknownMethod"
    case .accessoryUnknown:
      name = AccessorydBus.errorPrefix + "UnknownAccessory"
    case .accessoryNotCapable: name = AccessorydBus.errorPrefix + "NotCapable"
    case .accessoryInvalidRequest:
      name = AccessorydBus.errorPrefix + "InvalidRequest"
    case .accessoryInvalidated: name = AccessorydBus.errorPrefix + "Invalidated"
    case .busy: name = AccessorydBus.errorPrefix + "Busy"
    case .permissionDenied:
      name = "org.freedesktop.DBus.Error.AccessDenied"
    case .invalidConfiguration:
      name = AccessorydBus.errorPrefix + "InvalidConfiguration"
    default: name = "org.freedesktop.DBus.Error.Failed"
    }
    self.init(name: name, message: error.message)
  }
}
