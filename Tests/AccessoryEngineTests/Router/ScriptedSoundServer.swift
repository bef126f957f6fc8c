// A sound server scripted by the router's unit tests: it holds a state,
// publishes it the way SoundServerLink does, records every batch the router
// sends, and plays the person and other programs when a test says so.

import AccessoryEngine
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import SoundServerModel

/// A ``RoutingLink`` whose server a test scripts.
actor ScriptedSoundServer: RoutingLink {
  /// What the server does with the next batches.
  enum Behavior: Sendable {
    /// Applies each batch and reports the new state.
    case applies
    /// Waits for ``release()`` before it applies a batch.
    case holds
    /// Applies each batch but reports nothing, as PipeWire now and then
    /// does with default changes.
    case appliesSilently
    /// Goes away while the batch is sent.
    case goesAway
    /// Applies each batch but its default input, which it refuses.
    case refusesDefaultInput
    /// Applies each batch but its moves, which it answers as done and
    /// never shows, as a server busy with them may: no stream moves, not
    /// even with the default.
    case dropsMoves
    /// Refuses the batch's default and moves ("No such entity") and
    /// applies none of them, as PipeWire may for an output that is listed
    /// but not yet ready to take streams.
    case refusesNewOutput
  }

  /// The server's state; nil while it is away.
  private(set) var state: ServerMirror?
  /// What the server does with batches.
  var behavior = Behavior.applies
  /// Every batch the router sent, oldest first.
  private(set) var batches: [ServerBatch] = []
  /// Whether a microphone that a card profile brings becomes the default
  /// input at once, as WirePlumber's fallback may make it.
  private(set) var newMicrophoneBecomesDefault = false
  /// How many times the router asked for a fresh state.
  private(set) var reconnects = 0
  /// How many times the router checked the defaults as a new client.
  private(set) var defaultChecks = 0
  /// The default the server keeps showing its existing clients after a
  /// change it did not tell them of; nil when they see the truth.
  private var shownDefaultSink: String?
  /// Streams that keep their sink when the default changes, like streams
  /// with a target of their own on PulseAudio.
  private var pinned: Set<UInt32> = []
  private var subscribers: [AsyncStream<LinkUpdate>.Continuation] = []
  private var held: [CheckedContinuation<Void, Never>] = []
  private var batchWaiters: [(count: Int, CheckedContinuation<Void, Never>)] =
    []
  private var heldWaiters: [CheckedContinuation<Void, Never>] = []
  /// The engine's rule for streams whose sink vanishes.
  private var vanishingSinkMute: VanishingSinkMute?

  /// Creates a server with sinks and streams.
  ///
  /// - Parameters:
  ///   - sinks: The outputs, as `(name, Bluetooth address)`.
  ///   - defaultSink: The default output's name.
  ///   - streams: The playback streams, as `(index, sink name)`.
  ///   - isPipeWire: Whether the server says it is PipeWire's.
  init(
    sinks: [(String, String?)], defaultSink: String,
    streams: [(UInt32, String)] = [], isPipeWire: Bool = false
  ) {
    let sinkValues = sinks.enumerated().map { offset, sink in
      Self.sink(UInt32(offset), sink.0, address: sink.1)
    }
    state = ServerMirror(
      serverInfo: ServerInfo(
        serverName: isPipeWire
          ? "PulseAudio (on PipeWire 0.3.65)" : "pulseaudio",
        serverVersion: "16.1", defaultSinkName: defaultSink,
        defaultSourceName: nil, hostName: "host", userName: "user"),
      sinks: sinkValues,
      sinkInputs: streams.map { index, sinkName in
        Self.stream(
          index, on: sinkValues.first { $0.name == sinkName }!.index)
      },
      cards: [])
  }

  // MARK: - RoutingLink

  func updates() -> AsyncStream<LinkUpdate> {
    let (stream, continuation) = AsyncStream.makeStream(of: LinkUpdate.self)
    if let state { continuation.yield(.connected(state)) }
    subscribers.append(continuation)
    return stream
  }

  func apply(
    _ batch: ServerBatch
  ) async throws(SoundServerError) -> ServerBatchResult {
    batches.append(batch)
    let waiters = batchWaiters.filter { $0.count <= batches.count }
    batchWaiters.removeAll { $0.count <= batches.count }
    for waiter in waiters { waiter.1.resume() }
    switch behavior {
    case .applies, .appliesSilently, .refusesDefaultInput, .dropsMoves:
      break
    case .refusesNewOutput:
      return ServerBatchResult(
        cardProfiles: batch.cardProfiles.map { _ in .success(()) },
        defaultSink: batch.defaultSink.map { _ in .failure(.noSuchEntity) },
        defaultSource: batch.defaultSource.map { _ in .success(()) },
        moves: batch.moves.map { _ in .failure(.noSuchEntity) },
        mutes: batch.mutes.map { _ in .success(()) })
    case .holds:
      await withCheckedContinuation { continuation in
        held.append(continuation)
        for waiter in heldWaiters { waiter.resume() }
        heldWaiters = []
      }
    case .goesAway:
      goAway()
      throw .connectionTerminated
    }
    guard state != nil else { throw .connectionTerminated }
    let refusesInput = behavior == .refusesDefaultInput
    var applied = batch
    if refusesInput { applied.defaultSource = nil }
    if behavior == .dropsMoves { applied.moves = [] }
    // Dropped moves leave every stream where it was, the default too.
    let staying =
      behavior == .dropsMoves
      ? Set(state?.sinkInputs.map(\.index) ?? []) : self.pinned
    change(publishing: behavior != .appliesSilently) { state in
      Self.apply(
        applied, to: &state, pinned: staying,
        microphoneBecomesDefault: self.newMicrophoneBecomesDefault)
    }
    return ServerBatchResult(
      cardProfiles: batch.cardProfiles.map { _ in .success(()) },
      defaultSink: batch.defaultSink.map { _ in .success(()) },
      defaultSource: batch.defaultSource.map { _ in
        refusesInput ? .failure(.accessDenied) : .success(())
      },
      moves: batch.moves.map { _ in .success(()) },
      mutes: batch.mutes.map { _ in .success(()) })
  }

  /// Keeps the engine's rule for streams whose sink vanishes.
  func muteStreams(whenTheirSinkVanishes rule: VanishingSinkMute?) {
    vanishingSinkMute = rule
  }

  /// A sink goes away, as a Bluetooth output does: its streams move to
  /// the default (or the first other sink), muted first when the
  /// engine's rule applies to it, as the link does on its own thread;
  /// the state that shows the sink gone tells of the mute, as the link's
  /// do.
  ///
  /// - Parameter name: The sink's name.
  func removeSink(_ name: String) {
    guard var state, let sink = state.sink(named: name) else { return }
    let fallback =
      state.defaultSink.flatMap { $0.name == name ? nil : $0 }
      ?? state.sinks.first { $0.name != name }
    let moved = state.sinkInputs.filter { $0.sinkIndex == sink.index }
      .map(\.index)
    let mutes = vanishingSinkMute.map { $0.appliesTo(sink) } ?? false
    state.sinks.removeAll { $0.index == sink.index }
    if state.serverInfo.defaultSinkName == name {
      state.serverInfo.defaultSinkName = fallback?.name ?? ""
    }
    state.sinkInputs = state.sinkInputs.map { input in
      var input = input
      if moved.contains(input.index) {
        input.sinkIndex = fallback?.index ?? UInt32.max
        if mutes { input.isMuted = true }
      }
      return input
    }
    let muted = mutes && !moved.isEmpty
    if muted { vanishingSinkMute?.muted(sink, moved) }
    self.state = state
    publish(.changed(state, reflexes: muted ? [.muted(moved, of: sink)] : []))
  }

  /// A sink comes (back) with a new index, as a Bluetooth output does
  /// after a profile switch.
  func addSink(_ name: String, address: String?) {
    change { state in
      let index = (state.sinks.map(\.index).max() ?? 0) + 1
      state.sinks.append(Self.sink(index, name, address: address))
    }
  }

  /// A stream's client corks or uncorks it, as a player that pauses or
  /// plays does.
  func cork(_ stream: UInt32, _ corked: Bool) {
    change { state in
      state.sinkInputs = state.sinkInputs.map { input in
        var input = input
        if input.index == stream { input.isCorked = corked }
        return input
      }
    }
  }

  /// Whether a stream is muted now.
  func isMuted(_ stream: UInt32) -> Bool {
    state?.sinkInputs.first { $0.index == stream }?.isMuted ?? false
  }

  func reconnect() {
    reconnects += 1
    guard let state else { return }
    publish(.connected(state))
  }

  func checkDefaults() -> DefaultsCheck? {
    defaultChecks += 1
    guard let state else { return nil }
    var check = DefaultsCheck(
      sinkName: state.serverInfo.defaultSinkName,
      sourceName: state.defaultSourceName, reloading: false)
    if let shown = shownDefaultSink, shown != check.sinkName {
      shownDefaultSink = nil
      reconnect()
      check.reloading = true
    }
    return check
  }

  // MARK: - Scripting

  /// Sets what the server does with the next batches.
  func behave(_ behavior: Behavior) { self.behavior = behavior }

  /// Returns once the router has sent `count` batches in all.
  func waitForBatches(_ count: Int) async {
    guard batches.count < count else { return }
    await withCheckedContinuation { batchWaiters.append((count, $0)) }
  }

  /// Returns once a batch is held.
  func waitUntilHolding() async {
    guard held.isEmpty else { return }
    await withCheckedContinuation { heldWaiters.append($0) }
  }

  /// Lets held batches through, and later ones too.
  func release() {
    behavior = .applies
    let continuations = held
    held = []
    for continuation in continuations { continuation.resume() }
  }

  /// Runs `body` on the server.
  func run(_ body: @Sendable (isolated ScriptedSoundServer) -> Void) {
    body(self)
  }

  /// Another program changes the state, and the server reports it.
  func change(
    publishing: Bool = true, _ edit: (inout ServerMirror) -> Void
  ) {
    guard var state else { return }
    edit(&state)
    self.state = state
    if publishing { publish(.changed(state)) }
  }

  /// The person moves a stream with another program.
  func personMoves(_ stream: UInt32, to sinkName: String) {
    pinned.insert(stream)
    change { state in
      let sink = state.sink(named: sinkName)!
      state.sinkInputs = state.sinkInputs.map { input in
        var input = input
        if input.index == stream { input.sinkIndex = sink.index }
        return input
      }
    }
  }

  /// The person picks the default output with another program.
  func personChoosesDefault(_ sinkName: String) {
    change { $0.serverInfo.defaultSinkName = sinkName }
  }

  /// The person picks the default output while another client binds
  /// PipeWire's metadata: the streams that follow the default move, but
  /// existing clients are still shown the old default, until they
  /// reconnect.
  func personChoosesDefaultUnreported(_ sinkName: String) {
    guard var state else { return }
    let old = state.serverInfo.defaultSinkName
    Self.apply(
      ServerBatch(defaultSink: sinkName), to: &state, pinned: pinned,
      microphoneBecomesDefault: false)
    self.state = state
    shownDefaultSink = old
    var shown = state
    shown.serverInfo.defaultSinkName = old
    publish(.changed(shown))
  }

  /// A stream starts on a sink, optionally pinned there by its application.
  func startStream(
    _ index: UInt32, on sinkName: String, pinnedByApplication: Bool = false
  ) {
    if pinnedByApplication { pinned.insert(index) }
    change { state in
      var stream = Self.stream(index, on: state.sink(named: sinkName)!.index)
      if pinnedByApplication { stream.properties["target.object"] = sinkName }
      state.sinkInputs.append(stream)
    }
  }

  /// A Bluetooth card with a music profile (an output only) and a
  /// headset profile (an output and a microphone), as PipeWire has them:
  /// switching keeps the sink's name, and the headset profile adds the
  /// source `<sink>-mic`.
  func addBluetoothCard(
    _ name: String, sink: String, address: String, active: String
  ) {
    change { state in
      state.cards.append(
        Card(
          index: UInt32(100 + state.cards.count), name: name, driver: nil,
          properties: [
            "api.bluez5.address": address, "device.bus": "bluetooth",
            "scripted.sink": sink,
          ],
          profiles: [
            Self.profile(Self.musicProfile, sinks: 1, sources: 0, 16),
            Self.profile(Self.headsetProfile, sinks: 1, sources: 1, 3),
            Self.profile("off", sinks: 0, sources: 0, 0),
          ],
          activeProfileName: active, ownerModuleIndex: nil))
      Self.applyProfile(of: state.cards.count - 1, to: &state)
    }
  }

  /// The music profile of ``addBluetoothCard(_:sink:address:active:)``.
  static let musicProfile = "a2dp-sink-sbc"
  /// Its headset profile.
  static let headsetProfile = "headset-head-unit"

  /// A source appears: a microphone, or the monitor of a sink.
  func addSource(_ name: String, monitorOf sink: String? = nil) {
    change { state in
      let monitor = sink.flatMap { state.sink(named: $0)?.index }
      state.sources.append(Self.source(name, monitorOf: monitor, in: state))
    }
  }

  /// An application starts recording from a source, or stops.
  func record(
    _ index: UInt32, from source: String?, role: String? = "phone",
    application: String = "Call"
  ) {
    change { state in
      state.sourceOutputs.removeAll { $0.index == index }
      guard let source,
        let from = state.sources.first(where: { $0.name == source })
      else { return }
      state.sourceOutputs.append(
        SourceOutput(
          index: index, name: "capture \(index)", sourceIndex: from.index,
          clientIndex: nil,
          properties: ["application.name": application].merging(
            role.map { ["media.role": $0] } ?? [:]
          ) { a, _ in a },
          isCorked: false, isMuted: false, resampleMethod: nil,
          ownerModuleIndex: nil))
    }
  }

  /// From now on, a microphone that a card profile brings becomes the
  /// default input at once.
  func makeNewMicrophonesTheDefault() { newMicrophoneBecomesDefault = true }

  /// The person picks the default input with another program.
  func personChoosesDefaultInput(_ sourceName: String) {
    change { $0.serverInfo.defaultSourceName = sourceName }
  }

  /// The default input's name.
  var defaultSource: String? { state?.defaultSourceName }

  /// A card's active profile.
  func activeProfile(of card: String) -> String? {
    state?.cards.first { $0.name == card }?.activeProfileName
  }

  /// The server goes away.
  func goAway() {
    state = nil
    publish(.disconnected(.connectionTerminated))
  }

  /// The server comes back with a state.
  func comeBack(_ mirror: ServerMirror) {
    state = mirror
    publish(.connected(mirror))
  }

  /// The sink a stream plays on.
  func sinkOf(_ stream: UInt32) -> String? {
    guard let state,
      let input = state.sinkInputs.first(where: { $0.index == stream })
    else { return nil }
    return state.sink(index: input.sinkIndex)?.name
  }

  /// The default output's name.
  var defaultSink: String? { state?.defaultSinkName }

  private func publish(_ update: LinkUpdate) {
    for subscriber in subscribers { subscriber.yield(update) }
  }

  // MARK: - Values

  /// Applies a batch as PulseAudio does: a new default carries the streams
  /// on the old default that have no target of their own.
  private static func apply(
    _ batch: ServerBatch, to state: inout ServerMirror, pinned: Set<UInt32>,
    microphoneBecomesDefault: Bool
  ) {
    if let name = batch.defaultSink, let new = state.sink(named: name) {
      let old = state.defaultSink?.index
      state.serverInfo.defaultSinkName = name
      state.sinkInputs = state.sinkInputs.map { input in
        var input = input
        if input.sinkIndex == old, !pinned.contains(input.index) {
          input.sinkIndex = new.index
        }
        return input
      }
    }
    for change in batch.cardProfiles {
      guard
        let card = state.cards.firstIndex(where: { $0.name == change.cardName })
      else { continue }
      state.cards[card].activeProfileName = change.profileName
      let microphone = applyProfile(of: card, to: &state)
      if microphoneBecomesDefault, let microphone {
        state.serverInfo.defaultSourceName = microphone
      }
    }
    if let name = batch.defaultSource,
      state.sources.contains(where: { $0.name == name })
    {
      state.serverInfo.defaultSourceName = name
    }
    for mute in batch.mutes {
      state.sinkInputs = state.sinkInputs.map { input in
        var input = input
        if input.index == mute.sinkInput { input.isMuted = mute.muted }
        return input
      }
    }
    for move in batch.moves {
      guard let sink = state.sink(named: move.sink) else { continue }
      state.sinkInputs = state.sinkInputs.map { input in
        var input = input
        if input.index == move.sinkInput { input.sinkIndex = sink.index }
        return input
      }
    }
  }

  /// Gives a scripted Bluetooth card's microphone to the headset profile
  /// only; recordings from a microphone that goes are gone too.
  ///
  /// - Returns: The microphone, if the profile brought it.
  @discardableResult
  private static func applyProfile(
    of card: Int, to state: inout ServerMirror
  ) -> String? {
    let value = state.cards[card]
    guard let sink = value.properties["scripted.sink"] else { return nil }
    let microphone = "\(sink)-mic"
    let records =
      value.profiles.first { $0.name == value.activeProfileName }?.sourceCount
      ?? 0 > 0
    let present = state.sources.contains { $0.name == microphone }
    if records, !present {
      var source = Self.source(microphone, monitorOf: nil, in: state)
      source.properties = value.properties
      state.sources.append(source)
      return microphone
    } else if !records, present {
      let gone = state.sources.first { $0.name == microphone }!.index
      state.sources.removeAll { $0.index == gone }
      state.sourceOutputs.removeAll { $0.sourceIndex == gone }
    }
    return nil
  }

  static func profile(
    _ name: String, sinks: UInt32, sources: UInt32, _ priority: UInt32
  ) -> CardProfile {
    CardProfile(
      name: name, description: name, sinkCount: sinks, sourceCount: sources,
      priority: priority, isAvailable: true)
  }

  /// A new source, numbered after the state's others.
  static func source(
    _ name: String, monitorOf sink: UInt32?, in state: ServerMirror
  ) -> Source {
    Source(
      index: (state.sources.map(\.index).max() ?? 200) + 1, name: name,
      description: name,
      properties: [:], ports: [], activePortName: nil, isMuted: false,
      monitorOfSinkIndex: sink, cardIndex: nil, ownerModuleIndex: nil,
      driver: nil)
  }

  static func sink(_ index: UInt32, _ name: String, address: String?) -> Sink {
    var properties: [String: String] = [:]
    if let address {
      properties["api.bluez5.address"] = address
      properties["device.bus"] = "bluetooth"
      properties["device.form_factor"] = "headphone"
    }
    return Sink(
      index: index, name: name, description: name, properties: properties,
      ports: [], activePortName: nil, state: .running, isMuted: false,
      cardIndex: nil, ownerModuleIndex: nil, driver: nil)
  }

  static func stream(_ index: UInt32, on sink: UInt32) -> SinkInput {
    SinkInput(
      index: index, name: "stream \(index)", sinkIndex: sink, clientIndex: nil,
      clientName: nil, properties: ["application.name": "player \(index)"],
      isCorked: false, isMuted: false, ownerModuleIndex: nil)
  }
}
