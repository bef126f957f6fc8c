// What routing remembers between decisions, learned from the sound
// server's changes: the outputs used before, the person's own choices,
// streams the person moved, and when accessories' outputs came and went.
// Pure bookkeeping, the step's memory: the step feeds it the server's
// states and the time.

import SoundServerModel

/// What the router knows of one default, the output's or the input's:
/// those used before, the person's own choice, and the changes this
/// service sent and has not seen yet.
public struct DefaultTracking: Sendable, Hashable {
  /// Defaults used before, most recent first (the current one is not in
  /// it).
  public private(set) var history: [String] = []
  /// The person's own latest choice.
  public private(set) var manualChoice: ManualChoice?
  /// The defaults this service set and has not seen yet, oldest first, so
  /// that its own changes are not taken for the person's: when it sets
  /// two in a row, the server may report the first after the second was
  /// sent.
  public private(set) var expected: [String] = []
  /// Whether the latest of ``expected`` is the newest default there is.
  ///
  /// True when it was sent with ``send(_:at:)`` and the server has shown
  /// no change since but this service's own; false once ``expected`` is
  /// empty.
  private var sentIsNewest = false
  /// The default ``send(_:at:)`` sent last, and when.
  private var lastSent: SentDefault?
  /// The default the last state showed.
  public private(set) var current: String?
  /// When ``current`` became the default, as this service saw it (the
  /// first state of a connection counts as the moment it did).
  public private(set) var currentSince: Instant?
  /// A device that went while it was the default, which the server still
  /// keeps as its configured default.
  ///
  /// PulseAudio and WirePlumber both make it the default again by
  /// themselves when it comes back. `nil` once someone sets a default
  /// (which replaces the configured one), once it comes back, or once
  /// this service sets the default again (``forgetConfiguredButGone()``,
  /// or its own change shown). Not set when the default this service sent
  /// since the device went replaced it.
  public private(set) var configuredButGone: String?
  /// The default the server gave, by itself, to a device that had just
  /// come, while it is the default; `nil` once the default changes again.
  public private(set) var takenOnArrival: DefaultTakenOnArrival?
  private var lastNames: Set<String> = []
  /// When a device of this kind last came or went.
  private var lastStructuralChange: Instant?
  /// The devices that came in the last ``serverSettleSeconds``, and when.
  private var arrivals: [String: Instant] = [:]

  /// How long after a device came or went a change of the default is the
  /// server's own: WirePlumber settles its default for a node that
  /// appeared or vanished a moment after reporting the node, and may
  /// overrule a default set meanwhile.
  public static let serverSettleSeconds = 1.0

  /// The most defaults remembered in the history.
  public static let historyLimit = 16

  /// A default sent, and when.
  private struct SentDefault: Sendable, Hashable {
    var name: String
    var at: Instant
  }

  /// Creates empty tracking.
  public init() {}

  /// The default this service set last and has not seen yet.
  ///
  /// Setting one adds it to ``expected``, only so that its report is taken
  /// for this service's own (not as the default decided on: that is
  /// ``send(_:at:)``); setting nil forgets them all.
  public var latestExpected: String? {
    get { expected.last }
    set {
      sentIsNewest = false
      guard let newValue else {
        expected = []
        return
      }
      if expected.last != newValue { expected.append(newValue) }
      if expected.count > 8 { expected.removeFirst() }
    }
  }

  /// Sends a default: expects it, and takes it as the newest default until
  /// the server shows another change than this service's own.
  public mutating func send(_ name: String, at now: Instant) {
    latestExpected = name
    sentIsNewest = true
    lastSent = SentDefault(name: name, at: now)
  }

  /// The default sent last, while it is the newest there is and exists.
  private var sentAndNewest: String? {
    guard sentIsNewest, let sent = expected.last, lastNames.contains(sent)
    else { return nil }
    return sent
  }

  /// The default to decide on, given the one a state shows: the one this
  /// service sent last, while the server has shown no change since but
  /// this service's own and it exists; else the one shown.
  ///
  /// The server acknowledged the change, but PipeWire may not tell this
  /// client of it (a client binding its metadata at that moment hides it;
  /// the router checks a moment later, and WirePlumber may still overrule
  /// it as it settles). Deciding on the old default meanwhile would take
  /// the headphones that have the output for ones that do not.
  public func decidingOn(_ shown: String?) -> String? {
    sentAndNewest ?? shown
  }

  /// Since when the default of ``decidingOn(_:)`` is the default: when it
  /// was sent, or when the one shown became it.
  public var decidingSince: Instant? {
    sentAndNewest == nil ? currentSince : lastSent?.at
  }

  /// Forgets one default this service sent, which the server refused:
  /// the others it sent may still show up.
  public mutating func forgetExpected(_ name: String) {
    guard let last = expected.lastIndex(of: name) else { return }
    if last == expected.count - 1 { sentIsNewest = false }
    expected.remove(at: last)
  }

  /// Learns from a new state: a change this service did not make, while
  /// the old default still exists and nothing came or went in the last
  /// ``serverSettleSeconds``, is the person's own choice.
  ///
  /// - Parameters:
  ///   - newDefault: The default the state shows.
  ///   - names: The names of the devices of its kind that exist.
  ///   - isFirst: Whether this is the first state of a connection, which
  ///     is taken as it is.
  ///   - byTheServer: Whether a change is known to be the server's own
  ///     (never the person's choice).
  ///   - now: The time of the observation.
  mutating func observe(
    _ newDefault: String?, names: Set<String>, isFirst: Bool,
    byTheServer: Bool = false, now: Instant
  ) {
    if !isFirst, names != lastNames { lastStructuralChange = now }
    if !isFirst {
      for name in names.subtracting(lastNames) { arrivals[name] = now }
    }
    if !arrivals.isEmpty {
      arrivals = arrivals.filter {
        names.contains($0.key) && now - $0.value < Self.serverSettleSeconds
      }
    }
    let structural =
      !isFirst
      && lastStructuralChange.map { now - $0 < Self.serverSettleSeconds }
        ?? false
    var isOwn = false
    if let newDefault, let sent = expected.firstIndex(of: newDefault) {
      isOwn = true
      expected.removeFirst(sent + 1)
    }
    // Whether this service set the default since the last state: what the
    // server keeps configured is then its default, not one that went.
    let setSinceShown = isOwn || sentIsNewest
    // Another's change, or a connection's first state, is newer than
    // what was sent; a late report of an earlier send is not.
    if isFirst || (newDefault != current && !isOwn) || expected.isEmpty {
      sentIsNewest = false
    }
    // The server making its configured default the default again, as it
    // comes back: not a switch to a device that just came.
    let restoresConfigured =
      newDefault != nil && configuredButGone == newDefault
    if let gone = configuredButGone, names.contains(gone) {
      configuredButGone = nil
    }
    if isFirst || newDefault != current {
      // This service's own default, shown late, is the default since it
      // was sent.
      currentSince =
        isOwn && lastSent?.name == newDefault ? lastSent?.at ?? now : now
    }
    if !isFirst, newDefault != current {
      if let old = current, old != newDefault { remember(old) }
      if let old = current, !names.contains(old) {
        // The server's own fallback: the configured default stays the one
        // that went, unless an earlier one that went is configured still,
        // or this service set one since.
        if configuredButGone == nil, !setSinceShown {
          configuredButGone = old
        }
      } else if !structural || isOwn {
        configuredButGone = nil
      }
      history.removeAll { $0 == newDefault }
      if let newDefault, !isOwn, !structural, !byTheServer, let old = current,
        names.contains(old)
      {
        manualChoice = ManualChoice(output: newDefault, at: now)
      }
      // The server's own switch to a device that just came (PulseAudio's
      // module-switch-on-connect), from one that is still there.
      takenOnArrival = nil
      if let newDefault, !isOwn, !restoresConfigured,
        arrivals[newDefault] != nil, let old = current, names.contains(old)
      {
        takenOnArrival = DefaultTakenOnArrival(
          output: newDefault, previous: old)
      }
    }
    current = newDefault
    lastNames = names
  }

  /// Moves the person's choice to another device of the same thing, as
  /// when headphones come back from a profile switch under another name;
  /// when it was made stays.
  mutating func carryManualChoice(to name: String) {
    guard let choice = manualChoice else { return }
    manualChoice = ManualChoice(output: name, at: choice.at)
  }

  /// Takes a device as the person's own choice, made now: what
  /// `acctl output choose` asks, the same as choosing it in the desktop's
  /// settings.
  mutating func choose(_ name: String, at now: Instant) {
    manualChoice = ManualChoice(output: name, at: now)
  }

  /// Forgets the person's choice, so that the router decides alone again.
  ///
  /// - Returns: The device that was chosen, if one was.
  mutating func forgetManualChoice() -> String? {
    defer { manualChoice = nil }
    return manualChoice?.output
  }

  /// Takes another device of the same thing as the configured default
  /// that went as the person's choice.
  ///
  /// So it is when headphones nobody registered (``configuredButGone``)
  /// come back from a profile switch under another name: the server
  /// brings back only a device of the same name. It replaces an earlier
  /// choice of another device, which the default had left.
  ///
  /// - Parameters:
  ///   - name: The device that came.
  ///   - wentAt: When the configured default went, the choice's time.
  mutating func followConfiguredButGone(to name: String, wentAt: Instant) {
    guard configuredButGone != nil else { return }
    manualChoice = ManualChoice(output: name, at: wentAt)
  }

  /// Forgets ``configuredButGone``: this service set the default again,
  /// which replaces the server's configured one.
  mutating func forgetConfiguredButGone() {
    configuredButGone = nil
  }

  /// Forgets the last connection's state and the changes sent on it;
  /// the history and the person's choice stay.
  mutating func forgetConnection() {
    current = nil
    currentSince = nil
    configuredButGone = nil
    takenOnArrival = nil
    arrivals = [:]
    lastNames = []
    lastStructuralChange = nil
    expected = []
    sentIsNewest = false
    lastSent = nil
  }

  private mutating func remember(_ name: String) {
    history.removeAll { $0 == name }
    history.insert(name, at: 0)
    if history.count > Self.historyLimit { history.removeLast() }
  }
}

/// Routing's memory between decisions: what it saw of the sound server and
/// sent to it, and the decision `route --explain` shows.
public struct RouteTracking: Sendable {
  /// When an accessory's output came and went.
  public struct Presence: Sendable, Hashable {
    /// When the output last appeared after an absence (a connection).
    public var connectedAt: Instant?
    /// When the output disappeared, while it is gone.
    public var missingSince: Instant?
  }

  /// The default output: those used before, the person's choice, and the
  /// defaults this service sent.
  public private(set) var outputs = DefaultTracking()
  /// The default input, likewise.
  public private(set) var inputs = DefaultTracking()
  /// Streams pinned by the person or the application.
  public private(set) var pins: [UInt32: RoutingCore.Stream.Pin] = [:]
  /// Accessories' outputs, by normalized address.
  public private(set) var presence: [String: Presence] = [:]
  /// Headphones nobody registered, which take part in routing.
  public private(set) var headphones = UnregisteredHeadphones()
  /// Since when each recording stream that is not corked has recorded: it
  /// started, or was last uncorked.
  public private(set) var recordingSince: [UInt32: Instant] = [:]
  /// The default output this service sent that the server did not show
  /// in time, while a fresh state from a new connection is awaited: if it
  /// shows it, that is this service's own change, not the person's choice.
  public internal(set) var awaitingFreshOutput: String?
  /// The default input, likewise.
  public internal(set) var awaitingFreshInput: String?
  /// The decision `route --explain` shows.
  public internal(set) var explained: ExplainedRoute?
  /// Whether the server refused a default or a move of the last route
  /// (PipeWire answers "No such entity" for an output it lists but cannot
  /// take streams on yet): the check sends the route again.
  public internal(set) var routeRefused = false
  /// How many times in a row the route was sent again because the server
  /// did not carry it out; a decision that sends something for another
  /// reason, or a re-send to another output, starts the count again.
  public internal(set) var resendsInARow = 0
  /// Whether sending the route again gave up (``resendLimit``): it is
  /// pending until the next decision.
  public internal(set) var resendingGaveUp = false
  /// The output of the last route that sent something, nil when it chose
  /// none: a re-send to another output is a new route.
  public internal(set) var lastSentTarget: String?

  /// How many times in a row a route the server did not carry out is
  /// sent again, before the engine waits for a change instead.
  public static let resendLimit = 5

  /// Defaults used before, most recent first (the current default is not
  /// in it).
  public var history: [String] { outputs.history }
  /// The output that went while it was the default and that the server
  /// keeps as its configured default, with the accessory it belonged to.
  public var goneConfiguredOutput: GoneConfiguredOutput? {
    outputs.configuredButGone.map {
      GoneConfiguredOutput(name: $0, accessory: goneConfiguredAccessory)
    }
  }
  /// The person's own latest choice of default.
  public var manualChoice: ManualChoice? { outputs.manualChoice }
  /// The defaults this service set and has not seen yet, oldest first.
  public var expectedDefaults: [String] { outputs.expected }

  /// The default this service set last and has not seen yet.
  ///
  /// Setting one adds it to ``expectedDefaults``, so that its report is
  /// taken for this service's own; a default sent is set with
  /// ``sendDefault(_:isInput:at:)``, which also decides on it. Setting nil
  /// forgets them all.
  public var expectedDefault: String? {
    get { outputs.latestExpected }
    set { outputs.latestExpected = newValue }
  }

  /// The default input this service set last and has not seen yet.
  public var expectedDefaultInput: String? {
    get { inputs.latestExpected }
    set { inputs.latestExpected = newValue }
  }

  /// Sends a default output, or with `isInput` a default input: expects
  /// it, and decides on it until the server shows another change
  /// (``DefaultTracking/decidingOn(_:)``).
  public mutating func sendDefault(
    _ name: String, isInput: Bool = false, at now: Instant
  ) {
    if isInput {
      inputs.send(name, at: now)
    } else {
      outputs.send(name, at: now)
    }
  }

  /// Moves this service sent and has not seen happen yet.
  public var expectedMoves: [UInt32: String] = [:]
  /// The streams the last state showed moved by the person (or another
  /// program) from one output that still exists to another.
  public private(set) var movedByThePerson: [UInt32] = []
  /// On PipeWire, the streams of ``movedByThePerson`` that left the
  /// default, which the state shows unchanged: what a change of the
  /// default the server did not report looks like, when the streams that
  /// followed it moved.
  public private(set) var leftTheDefault: Set<UInt32> = []
  /// The streams of ``leftTheDefault`` not yet known to be moved by the
  /// person: when a later state shows the default changed to where they
  /// are, they followed it and are not pinned.
  public private(set) var unconfirmedMoves: Set<UInt32> = []

  /// Takes an output, or with `isInput` an input, as the person's own
  /// choice, made now.
  public mutating func choose(_ name: String, isInput: Bool, at now: Instant) {
    if isInput {
      inputs.choose(name, at: now)
    } else {
      outputs.choose(name, at: now)
    }
  }

  /// Forgets the person's choices of output and input.
  ///
  /// - Returns: The devices that were chosen, the output's first.
  public mutating func forgetManualChoices() -> [String] {
    [outputs.forgetManualChoice(), inputs.forgetManualChoice()]
      .compactMap { $0 }
  }

  /// Forgets one default this service sent, which the server refused:
  /// the others it sent may still show up.
  public mutating func forgetExpectedDefault(_ name: String) {
    outputs.forgetExpected(name)
  }

  /// Forgets one default input this service sent, which the server
  /// refused.
  public mutating func forgetExpectedDefaultInput(_ name: String) {
    inputs.forgetExpected(name)
  }

  private var lastStreamSinks: [UInt32: String] = [:]
  private var hasObserved = false
  /// Accessories unpaired since this tracking began, most recent last, by
  /// normalized address: their outputs may linger a moment, and nothing
  /// falls back to them.
  public private(set) var forgottenAccessories: [String] = []
  /// The accessories paired at the last ``notePaired(_:)``.
  private var paired: Set<String>?
  /// The Bluetooth address of each output that carried one, by name, as
  /// last seen: a default may be shown only after its output went (a
  /// pipewire-pulse connection may report a change late).
  private var bluetoothOutputs: [String: String] = [:]
  /// The Bluetooth address of ``DefaultTracking/configuredButGone`` when
  /// it was last seen.
  private var goneConfiguredAccessory: String?
  /// The output of the person's choice (or the configured default) that
  /// went, and since when.
  private var chosenOutputMissing: (name: String, since: Instant)?

  /// The most outputs remembered in the history.
  public static let historyLimit = DefaultTracking.historyLimit

  /// Creates empty tracking.
  public init() {}

  /// Learns from a new state of the sound server.
  ///
  /// - Parameters:
  ///   - server: The server's defaults.
  ///   - sinks: The outputs.
  ///   - sinkInputs: The playback streams.
  ///   - sources: The inputs, monitors included.
  ///   - sourceOutputs: The recording streams.
  ///   - accessories: The registered accessories' normalized addresses.
  ///   - headphonesByBlueZ: The Bluetooth devices BlueZ's class calls
  ///     headphones.
  ///   - reappearGrace: How long an output may be gone without it
  ///     counting as a disconnect.
  ///   - now: The time of the observation.
  public mutating func observe(
    server: ServerInfo, sinks: [Sink], sinkInputs: [SinkInput],
    sources: [Source] = [], sourceOutputs: [SourceOutput] = [],
    accessories: Set<String>, headphonesByBlueZ: Set<String> = [],
    reappearGrace: Double, now: Instant
  ) {
    let sinkNames = Set(sinks.map(\.name))
    let lastDefault = outputs.current
    let newDefault = server.defaultSinkName
    let goneBefore = outputs.configuredButGone
    outputs.observe(
      newDefault, names: sinkNames, isFirst: !hasObserved, now: now)
    if let gone = outputs.configuredButGone, gone != goneBefore {
      goneConfiguredAccessory = bluetoothOutputs[gone]
    }
    let expectedDefaults = outputs.expected
    let newDefaultInput = ServerMirror.withoutPlaceholder(
      server.defaultSourceName, "@DEFAULT_SOURCE@")
    inputs.observe(
      newDefaultInput, names: Set(sources.map(\.name)), isFirst: !hasObserved,
      byTheServer: Self.monitorFollowsTheDefault(
        from: (lastDefault, inputs.current), to: (newDefault, newDefaultInput),
        sinks: sinks, sources: sources),
      now: now)

    let nameOfSink = Dictionary(
      sinks.map { ($0.index, $0.name) }, uniquingKeysWith: { first, _ in first }
    )
    var streamSinks: [UInt32: String] = [:]
    movedByThePerson = []
    leftTheDefault = []
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
        if server.isPipeWire, previous == lastDefault,
          newDefault == lastDefault, !expectedDefaults.contains(sink)
        {
          leftTheDefault.insert(input.index)
        }
      }
    }
    unconfirmedMoves.formUnion(leftTheDefault)
    if hasObserved, newDefault != lastDefault, let newDefault {
      for stream in unconfirmedMoves where streamSinks[stream] == newDefault {
        unpin(stream)
      }
      unconfirmedMoves = []
    }
    unconfirmedMoves = unconfirmedMoves.filter { streamSinks[$0] != nil }
    pins = pins.filter { streamSinks[$0.key] != nil }
    expectedMoves = expectedMoves.filter { streamSinks[$0.key] != nil }

    var recording: [UInt32: Instant] = [:]
    for output in sourceOutputs where !output.isCorked {
      recording[output.index] = recordingSince[output.index] ?? now
    }
    recordingSince = recording

    notePresence(
      of: accessories, sinks: sinks, headphonesByBlueZ: headphonesByBlueZ,
      defaultOutput: newDefault, reappearGrace: reappearGrace, now: now)
    carryChoiceThroughAProfileSwitch(
      sinks: sinks, names: sinkNames, accessories: accessories,
      reappearGrace: reappearGrace, now: now)

    lastStreamSinks = streamSinks
    hasObserved = true
  }

  /// Whether a change of the default input is the server's own: with no
  /// input configured, the default input PulseAudio picks among monitors
  /// is the default output's, so it follows a change of the default
  /// output from one monitor to the other (pipewire-pulse shows the same).
  ///
  /// A person who changes both defaults to an output and its monitor at
  /// once is taken for the server: the input still follows the output,
  /// as they asked.
  ///
  /// - Parameters:
  ///   - old: The default output and input before.
  ///   - new: The default output and input now.
  ///   - sinks: The outputs.
  ///   - sources: The inputs.
  static func monitorFollowsTheDefault(
    from old: (output: String?, input: String?),
    to new: (output: String?, input: String?),
    sinks: [Sink], sources: [Source]
  ) -> Bool {
    guard old.output != new.output, old.input != new.input,
      let newInput = new.input
    else { return false }
    func isMonitor(_ input: String?, of output: String?) -> Bool {
      guard let output, let sink = sinks.first(where: { $0.name == output })
      else { return false }
      return sources.contains {
        $0.name == input && $0.monitorOfSinkIndex == sink.index
      }
    }
    return isMonitor(newInput, of: new.output)
      && isMonitor(old.input, of: old.output)
  }

  /// The person's choice follows their headphones through a profile
  /// switch.
  ///
  /// When the output they chose went and, within the reappear grace time,
  /// an output of the same Bluetooth address came (the headset profile's,
  /// under another name), the choice is that output, as made when it was.
  /// Registered or not: the router brings back the output of an
  /// accessory (registered, or headphones that take part in routing) by
  /// itself, and the choice keeps pointing at the person's headphones
  /// whatever they are. With no choice seen (the headset was the default
  /// before this service started), the server's configured default that
  /// went is followed the same way, unless a registered accessory's: the
  /// router decides for those.
  private mutating func carryChoiceThroughAProfileSwitch(
    sinks: [Sink], names: Set<String>, accessories: Set<String>,
    reappearGrace: Double, now: Instant
  ) {
    // The person's choice when it is what went; else the configured
    // default that went, if a Bluetooth output nobody registered.
    let choice = outputs.manualChoice.flatMap {
      names.contains($0.output) ? nil : $0
    }
    let configured = outputs.configuredButGone.flatMap { gone in
      bluetoothOutputs[gone].map { accessories.contains($0) } == false
        ? gone : nil
    }
    guard let followed = choice?.output ?? configured,
      !names.contains(followed)
    else {
      chosenOutputMissing = nil
      return
    }
    let missingSince =
      chosenOutputMissing.flatMap { $0.name == followed ? $0.since : nil }
      ?? now
    chosenOutputMissing = (followed, missingSince)
    guard now - missingSince <= reappearGrace,
      let address = bluetoothOutputs[followed],
      let successor = sinks.first(where: { bluetoothAddress(of: $0) == address }
      )
    else { return }
    if choice != nil {
      outputs.carryManualChoice(to: successor.name)
    } else {
      outputs.followConfiguredButGone(to: successor.name, wentAt: missingSince)
    }
    chosenOutputMissing = nil
  }

  /// Learns which registered accessories' outputs, and which headphones
  /// nobody registered, are present, without a new server state: an
  /// accessory registered since the last state is first seen at `now`,
  /// not at the next state, which may come much later.
  ///
  /// - Parameters:
  ///   - accessories: The registered accessories' normalized addresses.
  ///   - sinks: The outputs.
  ///   - headphonesByBlueZ: The Bluetooth devices BlueZ's class calls
  ///     headphones.
  ///   - defaultOutput: The default output's name.
  ///   - reappearGrace: How long an output may be gone without it
  ///     counting as a disconnect.
  ///   - now: The time of the observation.
  public mutating func notePresence(
    of accessories: Set<String>, sinks: [Sink],
    headphonesByBlueZ: Set<String> = [], defaultOutput: String?,
    reappearGrace: Double, now: Instant
  ) {
    headphones.note(
      sinks: sinks, registered: accessories, byBlueZ: headphonesByBlueZ,
      defaultOutput: defaultOutput,
      isFirstLook: !hasObserved, reappearGrace: reappearGrace, now: now)
    // Each output's address is read once, not once per accessory.
    var presentAddresses: Set<String> = []
    for sink in sinks {
      guard let address = bluetoothAddress(of: sink) else { continue }
      presentAddresses.insert(address)
      if bluetoothOutputs[sink.name] != address {
        // Bounded: names come and go, and only a recent one matters.
        if bluetoothOutputs.count >= 256 { bluetoothOutputs = [:] }
        bluetoothOutputs[sink.name] = address
      }
    }
    // An accessory neither present nor remembered stays as it is (no
    // entry is the same as an empty one): only the present and the
    // remembered are looked at, not every registered accessory.
    presence = presence.filter { accessories.contains($0.key) }
    let candidates = presentAddresses.filter { accessories.contains($0) }
      .union(presence.keys)
    for address in candidates {
      let present = presentAddresses.contains(address)
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
  }

  /// Learns which accessories are paired: those no longer paired are
  /// forgotten, those paired again are not.
  ///
  /// - Parameter addresses: The paired accessories' normalized addresses.
  public mutating func notePaired(_ addresses: Set<String>) {
    if let paired {
      let unpaired = paired.subtracting(addresses)
      forgottenAccessories.removeAll {
        addresses.contains($0) || unpaired.contains($0)
      }
      forgottenAccessories += unpaired.sorted()
      if forgottenAccessories.count > 64 {
        forgottenAccessories.removeFirst(forgottenAccessories.count - 64)
      }
    }
    paired = addresses
  }

  /// Forgets ``goneConfiguredOutput``: this service set the default
  /// again, which replaces the server's configured one.
  public mutating func forgetGoneConfiguredOutput() {
    outputs.forgetConfiguredButGone()
  }

  /// Takes streams of ``unconfirmedMoves`` as moved by the person: a new
  /// client saw the defaults this tracking saw.
  ///
  /// - Returns: Those of `streams` that were unconfirmed.
  public mutating func confirmMoves(_ streams: Set<UInt32>) -> Set<UInt32> {
    let confirmed = unconfirmedMoves.intersection(streams)
    unconfirmedMoves.subtract(confirmed)
    return confirmed
  }

  /// Takes a stream the person seemed to move as following the default.
  private mutating func unpin(_ stream: UInt32) {
    if pins[stream] == .user { pins[stream] = nil }
  }

  /// Forgets what was seen of the last connection to the sound server, so
  /// that the first state after a reconnection is taken as it is: a
  /// restarted server's own defaults are not the person's choice, and its
  /// streams are new.
  ///
  /// The histories, the person's choices, the accessories' presence and
  /// the count of re-sends stay.
  public mutating func forgetConnection() {
    hasObserved = false
    awaitingFreshOutput = nil
    awaitingFreshInput = nil
    routeRefused = false
    outputs.forgetConnection()
    inputs.forgetConnection()
    lastStreamSinks = [:]
    expectedMoves = [:]
    unconfirmedMoves = []
    pins = [:]
    recordingSince = [:]
  }
}
