// What the router remembers between decisions, learned from the sound
// server's changes: the outputs used before, the person's own choices,
// streams the person moved, and when accessories' outputs came and went.
// Pure bookkeeping: the router feeds it server states and the clock.

import AudioAccessoryKit
import FoundationEssentials
import PulseAudio
import RoutingCore

/// The router's memory of the sound server between decisions.
public struct RouteTracking: Sendable {
  /// When an accessory's output came and went.
  public struct Presence: Sendable, Hashable {
    /// When the output last appeared after an absence (a connection).
    public var connectedAt: Instant?
    /// When the output disappeared, while it is gone.
    public var missingSince: Instant?
  }

  /// Defaults used before, most recent first.
  public private(set) var history: [String] = []
  /// The person's own latest choice of default.
  public private(set) var manualChoice: ManualChoice?
  /// Streams pinned by the person or the application.
  public private(set) var pins: [UInt32: RoutingCore.Stream.Pin] = [:]
  /// Accessories' outputs, by normalized address.
  public private(set) var presence: [String: Presence] = [:]

  /// The defaults this service set and has not seen yet, oldest first, so
  /// that its own changes are not taken for the person's: when it sets
  /// two in a row, the server may report the first after the second was
  /// sent.
  public private(set) var expectedDefaults: [String] = []

  /// The default this service set last and has not seen yet.
  ///
  /// Setting one adds it to ``expectedDefaults``; setting nil forgets them
  /// all.
  public var expectedDefault: String? {
    get { expectedDefaults.last }
    set {
      guard let newValue else {
        expectedDefaults = []
        return
      }
      if expectedDefaults.last != newValue { expectedDefaults.append(newValue) }
      if expectedDefaults.count > 8 { expectedDefaults.removeFirst() }
    }
  }
  /// Moves this service sent and has not seen happen yet.
  public var expectedMoves: [UInt32: String] = [:]
  /// The streams the last state showed moved by the person (or another
  /// program) from one output that still exists to another.
  public private(set) var movedByThePerson: [UInt32] = []

  /// Forgets one default this service sent, which the server refused:
  /// the others it sent may still show up.
  public mutating func forgetExpectedDefault(_ name: String) {
    if let last = expectedDefaults.lastIndex(of: name) {
      expectedDefaults.remove(at: last)
    }
  }

  private var lastDefault: String?
  private var lastSinkNames: Set<String> = []
  private var lastStreamSinks: [UInt32: String] = [:]
  private var hasObserved = false

  /// The most outputs remembered in the history.
  public static let historyLimit = 16

  /// Creates empty tracking.
  public init() {}

  /// Learns from a new state of the sound server.
  ///
  /// - Parameters:
  ///   - server: The server's default and outputs.
  ///   - sinks: The outputs.
  ///   - sinkInputs: The playback streams.
  ///   - accessories: The registered accessories' normalized addresses.
  ///   - reappearGrace: How long an output may be gone without it
  ///     counting as a disconnect.
  ///   - now: The time of the observation.
  public mutating func observe(
    server: ServerInfo, sinks: [Sink], sinkInputs: [SinkInput],
    accessories: Set<String>, reappearGrace: Double, now: Instant
  ) {
    let sinkNames = Set(sinks.map(\.name))
    let structural = hasObserved && sinkNames != lastSinkNames
    let newDefault = server.defaultSinkName
    var isOwnDefault = false
    if let newDefault, let sent = expectedDefaults.firstIndex(of: newDefault) {
      isOwnDefault = true
      expectedDefaults.removeFirst(sent + 1)
    }
    if hasObserved, newDefault != lastDefault {
      if let old = lastDefault, old != newDefault {
        remember(old)
      }
      // The history holds the outputs used before the current one.
      history.removeAll { $0 == newDefault }
      // A change this service did not make, while the old output still
      // exists and no output came or went, is the person's own choice.
      if let newDefault, !isOwnDefault, !structural,
        let old = lastDefault, sinkNames.contains(old)
      {
        manualChoice = ManualChoice(output: newDefault, at: now)
      }
    }

    let nameOfSink = Dictionary(
      sinks.map { ($0.index, $0.name) }, uniquingKeysWith: { first, _ in first }
    )
    var streamSinks: [UInt32: String] = [:]
    movedByThePerson = []
    for input in sinkInputs {
      guard let sink = nameOfSink[input.sinkIndex] else { continue }
      streamSinks[input.index] = sink
      if input.properties["target.object"] != nil
        || input.properties["node.target"] != nil
      {
        pins[input.index] = .application
        continue
      }
      guard let previous = lastStreamSinks[input.index] else {
        // A new stream that starts on an output other than the default,
        // and other than the one this service is switching to, was put
        // there on purpose; PipeWire may also show a stream moved right
        // after it started for the first time on its new output.
        if hasObserved, sink != newDefault, sink != lastDefault,
          !expectedDefaults.contains(sink), expectedMoves[input.index] == nil
        {
          pins[input.index] = .startedThere
        }
        continue
      }
      guard previous != sink else { continue }
      if expectedMoves[input.index] == sink {
        expectedMoves[input.index] = nil
      } else if sink == newDefault {
        // Following the default, or moved back to it: not pinned.
        pins[input.index] = nil
        if newDefault == lastDefault, sinkNames.contains(previous) {
          movedByThePerson.append(input.index)
        }
      } else if sinkNames.contains(previous) {
        pins[input.index] = .user
        movedByThePerson.append(input.index)
      }
    }
    pins = pins.filter { streamSinks[$0.key] != nil }
    expectedMoves = expectedMoves.filter { streamSinks[$0.key] != nil }

    notePresence(
      of: accessories, sinks: sinks, reappearGrace: reappearGrace, now: now)

    lastDefault = newDefault
    lastSinkNames = sinkNames
    lastStreamSinks = streamSinks
    hasObserved = true
  }

  /// Learns which registered accessories' outputs are present, without a
  /// new server state: an accessory registered since the last state is
  /// first seen at `now`, not at the next state, which may come much later.
  ///
  /// - Parameters:
  ///   - accessories: The registered accessories' normalized addresses.
  ///   - sinks: The outputs.
  ///   - reappearGrace: How long an output may be gone without it
  ///     counting as a disconnect.
  ///   - now: The time of the observation.
  public mutating func notePresence(
    of accessories: Set<String>, sinks: [Sink], reappearGrace: Double,
    now: Instant
  ) {
    for address in accessories {
      let present = sinks.contains { bluetoothAddress(of: $0) == address }
      var entry = presence[address] ?? Presence()
      if present {
        if let missing = entry.missingSince {
          if now - missing >= reappearGrace { entry.connectedAt = now }
          entry.missingSince = nil
        } else if entry.connectedAt == nil {
          entry.connectedAt = now
        }
      } else if entry.connectedAt != nil, entry.missingSince == nil {
        entry.missingSince = now
      }
      presence[address] = entry
    }
    presence = presence.filter { accessories.contains($0.key) }
  }

  /// Forgets what was seen of the last connection to the sound server, so
  /// that the first state after a reconnection is taken as it is: a
  /// restarted server's own default is not the person's choice, and its
  /// streams are new.
  ///
  /// The history, the person's choice and the accessories' presence stay.
  public mutating func forgetConnection() {
    hasObserved = false
    lastDefault = nil
    lastSinkNames = []
    lastStreamSinks = [:]
    expectedDefault = nil
    expectedMoves = [:]
    pins = [:]
  }

  private mutating func remember(_ output: String) {
    history.removeAll { $0 == output }
    history.insert(output, at: 0)
    if history.count > Self.historyLimit { history.removeLast() }
  }
}

/// Returns the Bluetooth address a sink carries, upper case with `:`, or
/// nil: `api.bluez5.address` on PipeWire, `device.string` with
/// `device.api` `bluez` on PulseAudio.
public func bluetoothAddress(of sink: Sink) -> String? {
  bluetoothAddress(properties: sink.properties)
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
