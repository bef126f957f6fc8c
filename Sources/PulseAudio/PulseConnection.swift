import SoundServerModel

/// A connection to a PulseAudio server, or to PipeWire through
/// pipewire-pulse, with typed, asynchronous operations.
///
/// Each connection owns one libpulse threaded mainloop and one context.
/// Operations can be issued from any task; those issued together by one
/// call, such as ``moveSinkInputs(_:toSinkNamed:)``, are pipelined on the
/// connection. Every operation has a timeout and fails with a
/// ``PulseError``, never hangs, if the server dies or stops answering.
///
/// ```swift
/// let connection = try await PulseConnection.connect()
/// let sinks = try await connection.sinks()
/// try await connection.setDefaultSink(sinks[0].name)
/// ```
///
/// A connection cannot be reopened: after the server goes away, connect
/// again.
public final class PulseConnection: Sendable {
  /// How to connect and how long to wait.
  public struct Options: Sendable, Hashable {
    /// The server to connect to, such as `unix:/run/user/1000/pulse/native`;
    /// `nil` lets libpulse resolve it (`PULSE_SERVER`, then the defaults).
    public var server: String?
    /// The name the server shows for this client.
    public var applicationName: String
    /// How long connecting may take.
    public var connectTimeout: Duration
    /// How long one operation may take.
    public var operationTimeout: Duration
    /// Whether the connection subscribes to the server's events.
    ///
    /// A connection that only sends commands can leave it off: the server
    /// then writes it no events, and a switch of many streams costs both
    /// sides less. ``PulseConnection/events`` then only ends with the
    /// connection.
    public var followsEvents: Bool

    /// Creates options.
    public init(
      server: String? = nil,
      applicationName: String = "accessoryd",
      connectTimeout: Duration = .seconds(5),
      operationTimeout: Duration = .seconds(5),
      followsEvents: Bool = true
    ) {
      self.server = server
      self.applicationName = applicationName
      self.connectTimeout = connectTimeout
      self.operationTimeout = operationTimeout
      self.followsEvents = followsEvents
    }
  }

  let driver: ContextDriver

  /// The options the connection was made with.
  public let options: Options

  private init(driver: ContextDriver, options: Options) {
    self.driver = driver
    self.options = options
  }

  deinit {
    driver.close()
  }

  /// Connects to a server and, unless ``Options/followsEvents`` is off,
  /// subscribes to its sink, stream, card and server events.
  ///
  /// The corresponding C functions are `pa_context_connect` and
  /// `pa_context_subscribe`.
  ///
  /// - Parameters:
  ///   - options: The server and the timeouts.
  ///   - eventHandler: If given, called for each event on the connection's
  ///     own thread, as it arrives, instead of ``events`` yielding it; it
  ///     must return quickly and must not call the connection. It saves a
  ///     task switch per event when only the arrival matters, as for a
  ///     mirror that refetches lists once a burst of events is over.
  /// - Returns: A ready connection.
  /// - Throws: ``PulseError``, for example ``PulseError/connectionRefused``
  ///   or ``PulseError/timeout``.
  public static func connect(
    _ options: Options = Options(),
    eventHandler: (@Sendable (ServerEvent) -> Void)? = nil
  ) async throws(PulseError) -> PulseConnection {
    let driver = ContextDriver(
      applicationName: options.applicationName, eventHandler: eventHandler)
    do {
      try await driver.connect(
        server: options.server, timeout: options.connectTimeout,
        subscribing: options.followsEvents)
    } catch {
      driver.close()
      throw error
    }
    return PulseConnection(driver: driver, options: options)
  }

  /// The server's changes to sinks, streams, cards and defaults, as they
  /// happen.
  ///
  /// The stream has one consumer and ends when the connection does. With
  /// an event handler given to ``connect(_:eventHandler:)`` it yields
  /// nothing and only ends.
  public var events: AsyncStream<ServerEvent> { driver.events }

  /// The connection's states: `connecting`, `ready`, then, when it ends,
  /// `failed` with the reason if it broke, and always `terminated` last.
  ///
  /// The stream has one consumer.
  public var states: AsyncStream<ConnectionState> { driver.states }

  /// Closes the connection; pending operations fail with
  /// ``PulseError/connectionTerminated``.
  public func close() {
    driver.close()
  }

  // MARK: - Introspection

  /// Returns the server's name, version and defaults.
  ///
  /// The corresponding C function is `pa_context_get_server_info`.
  public func serverInfo() async throws(PulseError) -> ServerInfo {
    try await driver.serverInfo(timeout: options.operationTimeout)
  }

  /// Returns every sink.
  ///
  /// The corresponding C function is `pa_context_get_sink_info_list`.
  public func sinks() async throws(PulseError) -> [Sink] {
    try await driver.sinks(timeout: options.operationTimeout)
  }

  /// Returns the sink with a name.
  ///
  /// The corresponding C function is `pa_context_get_sink_info_by_name`.
  ///
  /// - Throws: ``PulseError/noSuchEntity`` if there is none.
  public func sink(named name: String) async throws(PulseError) -> Sink {
    try await driver.sink(named: name, timeout: options.operationTimeout)
  }

  /// Returns every playback stream, with the name of its client.
  ///
  /// The corresponding C functions are `pa_context_get_sink_input_info_list`
  /// and `pa_context_get_client_info_list`, pipelined.
  public func sinkInputs() async throws(PulseError) -> [SinkInput] {
    try await driver.sinkInputs(timeout: options.operationTimeout)
  }

  /// Returns every source, monitors of sinks included.
  ///
  /// The corresponding C function is `pa_context_get_source_info_list`.
  public func sources() async throws(PulseError) -> [Source] {
    try await driver.sources(timeout: options.operationTimeout)
  }

  /// Returns every recording stream.
  ///
  /// The corresponding C function is
  /// `pa_context_get_source_output_info_list`.
  public func sourceOutputs() async throws(PulseError) -> [SourceOutput] {
    try await driver.sourceOutputs(timeout: options.operationTimeout)
  }

  /// Returns every card with its profiles.
  ///
  /// The corresponding C function is `pa_context_get_card_info_list`.
  public func cards() async throws(PulseError) -> [Card] {
    try await driver.cards(timeout: options.operationTimeout)
  }

  // MARK: - Commands

  /// Makes a sink the default output.
  ///
  /// PulseAudio replies after streams that follow the default have moved;
  /// PipeWire replies at once and WirePlumber applies the change later, so
  /// wait for the server's change event to see it.
  ///
  /// The corresponding C function is `pa_context_set_default_sink`.
  public func setDefaultSink(_ name: String) async throws(PulseError) {
    try await driver.setDefaultSink(name, timeout: options.operationTimeout)
  }

  /// Makes a source the default input.
  ///
  /// The corresponding C function is `pa_context_set_default_source`.
  public func setDefaultSource(_ name: String) async throws(PulseError) {
    try await driver.setDefaultSource(name, timeout: options.operationTimeout)
  }

  /// Moves one playback stream to a sink.
  ///
  /// The corresponding C function is `pa_context_move_sink_input_by_name`.
  public func moveSinkInput(
    _ index: UInt32, toSinkNamed name: String
  ) async throws(PulseError) {
    try await moveSinkInputs([index], toSinkNamed: name)[0].get()
  }

  /// Moves playback streams to a sink, pipelined on the connection.
  ///
  /// All moves are sent before any reply is awaited.
  ///
  /// The corresponding C function is `pa_context_move_sink_input_by_name`.
  ///
  /// - Returns: One result per stream, in the order given.
  public func moveSinkInputs(
    _ indexes: [UInt32], toSinkNamed name: String
  ) async -> [Result<Void, PulseError>] {
    await driver.moveSinkInputs(
      indexes, toSinkNamed: name, timeout: options.operationTimeout)
  }

  /// Activates a profile of a card.
  ///
  /// The corresponding C function is `pa_context_set_card_profile_by_name`.
  public func setCardProfile(
    cardNamed card: String, profile: String
  ) async throws(PulseError) {
    try await driver.setCardProfile(
      cardNamed: card, profile: profile, timeout: options.operationTimeout)
  }

  /// Mutes or unmutes a sink.
  ///
  /// The corresponding C function is `pa_context_set_sink_mute_by_name`.
  public func setSinkMute(
    sinkNamed name: String, muted: Bool
  ) async throws(PulseError) {
    try await driver.setSinkMute(
      sinkNamed: name, muted: muted, timeout: options.operationTimeout)
  }

  /// Mutes or unmutes a playback stream.
  ///
  /// The corresponding C function is `pa_context_set_sink_input_mute`.
  public func setSinkInputMute(
    _ index: UInt32, muted: Bool
  ) async throws(PulseError) {
    try await driver.setSinkInputMute(
      index, muted: muted, timeout: options.operationTimeout)
  }

  /// Suspends or resumes a sink.
  ///
  /// The corresponding C function is `pa_context_suspend_sink_by_name`.
  public func suspendSink(
    sinkNamed name: String, suspended: Bool
  ) async throws(PulseError) {
    try await driver.suspendSink(
      sinkNamed: name, suspended: suspended, timeout: options.operationTimeout)
  }

  /// Loads a server module, such as `module-null-sink`.
  ///
  /// The corresponding C function is `pa_context_load_module`.
  ///
  /// - Returns: The module's index.
  public func loadModule(
    _ name: String, arguments: String = ""
  ) async throws(PulseError) -> UInt32 {
    try await driver.loadModule(
      name, arguments: arguments, timeout: options.operationTimeout)
  }

  /// Unloads a server module.
  ///
  /// The corresponding C function is `pa_context_unload_module`.
  public func unloadModule(_ index: UInt32) async throws(PulseError) {
    try await driver.unloadModule(index, timeout: options.operationTimeout)
  }
}
