// What the service knows of the sound server at one moment: the lists that
// the link keeps up to date from the server's events; and what a sink's
// properties say of it (a Bluetooth address, headphones, a jack in use).

/// A copy of the sound server's state: its identity and defaults, sinks,
/// playback streams, sources, recording streams and cards.
///
/// A mirror is a plain value. The link to the server publishes a new one each
/// time the server reports a change, so a mirror never changes under its
/// reader.
public struct ServerMirror: Sendable, Hashable {
  /// The server's name, version and defaults.
  public var serverInfo: ServerInfo
  /// Every sink, in the server's order.
  public var sinks: [Sink]
  /// Every playback stream, in the server's order.
  public var sinkInputs: [SinkInput]
  /// Every source, monitors of sinks included, in the server's order.
  public var sources: [Source]
  /// Every recording stream, in the server's order.
  public var sourceOutputs: [SourceOutput]
  /// Every card, in the server's order.
  public var cards: [Card]

  /// Creates a mirror.
  public init(
    serverInfo: ServerInfo, sinks: [Sink], sinkInputs: [SinkInput],
    sources: [Source] = [], sourceOutputs: [SourceOutput] = [],
    cards: [Card]
  ) {
    self.serverInfo = serverInfo
    self.sinks = sinks
    self.sinkInputs = sinkInputs
    self.sources = sources
    self.sourceOutputs = sourceOutputs
    self.cards = cards
  }

  /// The name of the default source, or `nil` if the server has none.
  ///
  /// PipeWire's placeholder `@DEFAULT_SOURCE@` counts as none.
  public var defaultSourceName: String? {
    Self.withoutPlaceholder(serverInfo.defaultSourceName, "@DEFAULT_SOURCE@")
  }

  /// Returns a default's name, or `nil` for none: empty, or PipeWire's
  /// placeholder, which it reports while no default is known.
  package static func withoutPlaceholder(
    _ name: String?, _ placeholder: String
  ) -> String? {
    guard let name, !name.isEmpty, name != placeholder else { return nil }
    return name
  }

  /// The name of the default sink, or `nil` if the server has none.
  ///
  /// PipeWire's placeholder `@DEFAULT_SINK@`, which it reports while no
  /// default is known, counts as none.
  public var defaultSinkName: String? {
    Self.withoutPlaceholder(serverInfo.defaultSinkName, "@DEFAULT_SINK@")
  }

  /// The default sink, if the server has one and lists it.
  public var defaultSink: Sink? {
    defaultSinkName.flatMap { sink(named: $0) }
  }

  /// Returns the sink with a name, if there is one.
  ///
  /// - Parameter name: The sink's name, such as `alsa_output.pci-0000.analog`.
  public func sink(named name: String) -> Sink? {
    sinks.first { $0.name == name }
  }

  /// Returns the sink with an index, if there is one.
  ///
  /// - Parameter index: The server's index of the sink.
  public func sink(index: UInt32) -> Sink? {
    sinks.first { $0.index == index }
  }

  /// Returns the playback streams that play on a sink.
  ///
  /// - Parameter name: The sink's name.
  public func sinkInputs(onSinkNamed name: String) -> [SinkInput] {
    guard let sink = sink(named: name) else { return [] }
    return sinkInputs.filter { $0.sinkIndex == sink.index }
  }

  /// Returns the sinks of a Bluetooth device.
  ///
  /// A sink belongs to the device if its `api.bluez5.address` property (as
  /// on PipeWire) is the address, or if its `device.api` is `bluez` or
  /// `bluez5` and its `device.string` (as on PulseAudio) is the address.
  /// Addresses compare without regard to letter case or separators.
  ///
  /// - Parameter address: The device address, such as `AA:BB:CC:DD:EE:FF`;
  ///   `aa-bb-cc-dd-ee-ff`, `AA_BB_CC_DD_EE_FF` and `aabbccddeeff` work too.
  /// - Returns: The device's sinks in the server's order; none if the text
  ///   is not an address.
  public func sinks(forBluetoothAddress address: String) -> [Sink] {
    guard let wanted = Self.normalizedBluetoothAddress(address) else {
      return []
    }
    return sinks.filter { bluetoothAddress(of: $0) == wanted }
  }

  /// Returns a Bluetooth address in the form `AA:BB:CC:DD:EE:FF`, or `nil`
  /// if the text is not one.
  ///
  /// - Parameter text: Six hexadecimal bytes in any letter case, separated
  ///   by `:`, `-` or `_`, or not separated at all.
  public static func normalizedBluetoothAddress(_ text: String) -> String? {
    let separators: Set<Character> = [":", "-", "_"]
    var parts = text.split(
      omittingEmptySubsequences: false, whereSeparator: separators.contains)
    if parts.count == 1, text.count == 12 {
      let characters = Array(text)
      parts = stride(from: 0, to: 12, by: 2).map { start in
        Substring(String(characters[start..<start + 2]))
      }
    }
    guard parts.count == 6,
      parts.allSatisfy({ part in
        part.count == 2
          && part.allSatisfy { $0.isASCII && $0.isHexDigit }
      })
    else { return nil }
    return parts.map { $0.uppercased() }.joined(separator: ":")
  }

  /// Whether another state routes the same: it differs from this one at
  /// most in what no rule reads (a stream muted, corked or uncorked by
  /// its player, a sink muted, idle or suspended).
  ///
  /// A player that pauses or plays, or the engine's own mutes, change only
  /// that: the router need not decide again on them.
  public func routesLike(_ other: ServerMirror) -> Bool {
    serverInfo == other.serverInfo && cards == other.cards
      && sourceOutputs == other.sourceOutputs
      && sinks.count == other.sinks.count
      && sinkInputs.count == other.sinkInputs.count
      && sources.count == other.sources.count
      && zip(sinks, other.sinks).allSatisfy { a, b in
        var a = a
        a.state = b.state
        a.isMuted = b.isMuted
        return a == b
      }
      && zip(sinkInputs, other.sinkInputs).allSatisfy { a, b in
        var a = a
        a.isMuted = b.isMuted
        a.isCorked = b.isCorked
        return a == b
      }
      && zip(sources, other.sources).allSatisfy { a, b in
        var a = a
        a.isMuted = b.isMuted
        return a == b
      }
  }
}

/// Returns the Bluetooth address a sink carries, upper case with `:`, or
/// nil: `api.bluez5.address` on PipeWire, `device.string` with
/// `device.api` `bluez` on PulseAudio.
public func bluetoothAddress(of sink: Sink) -> String? {
  bluetoothAddress(properties: sink.properties)
}

/// The prefix of a wired headphone jack's identity: ``headphonesKey(of:)``.
public let wiredHeadphonesPrefix = "jack:"

/// Whether a sink plays on headphones: Bluetooth headphones
/// (``isBluetoothHeadphones(properties:byBlueZ:)``), or a sound card whose
/// active port is a headphone jack known to be plugged in.
///
/// - Parameters:
///   - sink: The sink.
///   - byBlueZ: The Bluetooth devices BlueZ's class calls headphones
///     (the daemon's `BlueZHeadphoneClasses`), for sinks whose properties say nothing.
public func isHeadphones(_ sink: Sink, byBlueZ: Set<String> = []) -> Bool {
  isBluetoothHeadphones(properties: sink.properties, byBlueZ: byBlueZ)
    || wiredHeadphonesJack(of: sink) != nil
}

/// The active port of a sink when it is a wired headphone jack known to
/// be plugged in; nil for a Bluetooth sink.
///
/// A headphone port without jack detection (its availability unknown)
/// is none: nothing would tell when the headphones go.
public func wiredHeadphonesJack(of sink: Sink) -> SinkPort? {
  guard bluetoothAddress(of: sink) == nil,
    let active = sink.activePortName,
    let port = sink.ports.first(where: { $0.name == active }),
    port.isHeadphoneJack, port.availability == .available
  else { return nil }
  return port
}

/// The text that identifies the headphones a sink plays on.
///
/// It is the Bluetooth address, or, for a headphone jack in use,
/// ``wiredHeadphonesPrefix`` and the sink's name; nil for any other sink.
/// A jack pulled (the active port is no longer the jack, or it is
/// unplugged) leaves the sink without one, as if the headphones' output
/// had gone.
public func headphonesKey(of sink: Sink) -> String? {
  if let address = bluetoothAddress(of: sink) { return address }
  guard wiredHeadphonesJack(of: sink) != nil else { return nil }
  return wiredHeadphonesPrefix + sink.name
}

/// Whether a property list is a Bluetooth device worn on the head: one
/// with a Bluetooth address and a headphone, headset or hands-free form
/// factor (`device.form_factor`, `device.form-factor` as PipeWire writes
/// it), or, without one, a headphone or headset icon (`device.icon_name`,
/// or BlueZ's, `api.bluez5.icon`).
///
/// A Bluetooth speaker or car kit is none. Where the properties say
/// nothing (no form factor, or PipeWire's `unknown`, and no such icon),
/// BlueZ's class counts: `byBlueZ` holds the addresses it calls headphones.
public func isBluetoothHeadphones(
  properties: [String: String], byBlueZ: Set<String> = []
) -> Bool {
  guard let address = bluetoothAddress(properties: properties) else {
    return false
  }
  // PipeWire writes `unknown` for a device without a class: not a word.
  if let formFactor =
    (properties["device.form_factor"]
    ?? properties["device.form-factor"])?.lowercased(), formFactor != "unknown"
  {
    return ["headphone", "headset", "hands-free", "handsfree"].contains(
      formFactor)
  }
  let icon =
    (properties["device.icon_name"] ?? properties["device.icon-name"]
    ?? properties["api.bluez5.icon"] ?? "").lowercased()
  if icon.hasPrefix("audio-headphones") || icon.hasPrefix("audio-headset") {
    return true
  }
  return byBlueZ.contains(address)
}

/// Returns the Bluetooth address in a property list, normalized, or nil.
public func bluetoothAddress(properties: [String: String]) -> String? {
  if let value = properties["api.bluez5.address"],
    let address = ServerMirror.normalizedBluetoothAddress(value)
  {
    return address
  }
  guard let api = properties["device.api"]?.lowercased(),
    api == "bluez" || api == "bluez5", let value = properties["device.string"]
  else { return nil }
  return ServerMirror.normalizedBluetoothAddress(value)
}
