// A client of the media players on the session bus (MPRIS): which players
// there are, what each is doing, and Pause and Play.

import DBus
import Glibc

/// A connection to the session bus that follows every MPRIS player on it.
///
/// The client keeps a copy of the players, current from the bus's
/// `NameOwnerChanged` and each player's `PropertiesChanged`, and reports
/// their changes through ``changes()``. One dedicated thread drives the
/// connection; every call has a timeout and fails with an ``MPRISError``,
/// never hangs.
///
/// ```swift
/// let client = try await MPRISClient.connect()
/// for player in client.players() where player.playbackStatus == .playing {
///   try await client.pause(player.busName)
/// }
/// ```
///
/// - Important: Call ``close()`` when done; `deinit` closes the connection
///   too.
public final class MPRISClient: Sendable {
  private let driver: DBusConnectionDriver
  private let tracker: PlayerTracker

  /// The address of the bus the client is connected to.
  public let busAddress: String

  /// How long one call may wait for its reply.
  public let callTimeout: Duration

  private init(
    driver: DBusConnectionDriver, tracker: PlayerTracker, busAddress: String,
    callTimeout: Duration
  ) {
    self.driver = driver
    self.tracker = tracker
    self.busAddress = busAddress
    self.callTimeout = callTimeout
  }

  deinit {
    driver.close()
  }

  /// The session bus's address, `DBUS_SESSION_BUS_ADDRESS`, or nil when the
  /// process has none.
  public static var sessionBusAddress: String? {
    guard let address = environmentVariable("DBUS_SESSION_BUS_ADDRESS"),
      !address.isEmpty
    else { return nil }
    return address
  }

  /// Connects to a bus, follows its players and reads those already there.
  ///
  /// - Parameters:
  ///   - busAddress: A D-Bus address; nil means the session bus
  ///     (``sessionBusAddress``).
  ///   - callTimeout: How long one call may wait for its reply.
  /// - Returns: A connected client that knows every player on the bus.
  /// - Throws: ``MPRISError`` if there is no session bus or it cannot be
  ///   reached.
  public static func connect(
    busAddress: String? = nil, callTimeout: Duration = .seconds(5)
  ) async throws(MPRISError) -> MPRISClient {
    guard let address = busAddress ?? sessionBusAddress else {
      throw MPRISError(
        name: MPRISError.noSessionBus,
        message: "DBUS_SESSION_BUS_ADDRESS is not set",
        operation: "connecting to the session bus")
    }
    let tracker = PlayerTracker()
    let opened = await DBusConnectionDriver.open(
      address: address, matchRules: matchRules,
      signalHandler: { signal, driver in
        if case .load(let name, let owner) = tracker.handle(signal) {
          Task {
            await PlayerReader(driver: driver, timeout: callTimeout)
              .read(name, owner: owner, into: tracker)
          }
        }
      },
      onEnd: { tracker.finish() })
    let driver: DBusConnectionDriver
    switch opened {
    case .success(let opened): driver = opened
    case .failure(let failure):
      tracker.finish()
      throw MPRISError(
        failure, operation: "connecting to the D-Bus bus at \(address)")
    }
    let reader = PlayerReader(driver: driver, timeout: callTimeout)
    let listed = await driver.call(
      DBusMethodCall(
        destination: MPRISNames.bus, path: MPRISNames.busPath,
        interface: MPRISNames.bus, member: "ListNames"),
      timeout: callTimeout)
    if case .failure(let failure) = listed {
      driver.close()
      throw MPRISError(failure, operation: "listing the names on the bus")
    }
    let names = (try? listed.get().arguments.first?.array)??
      .compactMap(\.string).filter { $0.hasPrefix(MPRISNames.busNamePrefix) }
    for name in (names ?? []).sorted() {
      await reader.read(name, owner: nil, into: tracker)
    }
    return MPRISClient(
      driver: driver, tracker: tracker, busAddress: address,
      callTimeout: callTimeout)
  }

  /// Closes the connection; every stream from ``changes()`` ends.
  public func close() {
    driver.close()
  }

  /// The players on the bus now, by bus name.
  public func players() -> [MediaPlayer] { tracker.players() }

  /// Returns a stream of the changes from now on.
  public func changes() -> AsyncStream<MediaPlayerChange> {
    tracker.subscribe()
  }

  /// Asks a player to pause (`org.mpris.MediaPlayer2.Player.Pause`).
  ///
  /// Cancelling the calling task ends the wait for the player's answer.
  ///
  /// - Parameters:
  ///   - busName: The player's bus name.
  ///   - timeout: How long to wait for its answer; nil for
  ///     ``callTimeout``.
  /// - Throws: ``MPRISError`` if the player refuses, is gone or does not
  ///   answer in time.
  public func pause(
    _ busName: String, timeout: Duration? = nil
  ) async throws(MPRISError) {
    try await callPlayer(
      busName, "Pause", doing: "pausing \(busName)", timeout: timeout)
  }

  /// Asks a player to play (`org.mpris.MediaPlayer2.Player.Play`).
  ///
  /// Cancelling the calling task ends the wait for the player's answer.
  ///
  /// - Throws: ``MPRISError`` if the player refuses or is gone, or the
  ///   task was cancelled before it answered.
  public func play(_ busName: String) async throws(MPRISError) {
    try await callPlayer(busName, "Play", doing: "resuming \(busName)")
  }

  /// Reads a player's playback position (`Position`, which MPRIS
  /// leaves out of `PropertiesChanged`, so it is asked for each time).
  ///
  /// - Throws: ``MPRISError`` if the player is gone, does not answer, or
  ///   gives no position.
  public func position(_ busName: String) async throws(MPRISError) -> Duration {
    let call = DBusMethodCall(
      destination: busName, path: MPRISNames.path,
      interface: MPRISNames.properties, member: "Get",
      arguments: [.string(MPRISNames.playerInterface), .string("Position")])
    let operation = "reading the position of \(busName)"
    switch await driver.call(call, timeout: callTimeout) {
    case .failure(let failure):
      throw MPRISError(failure, operation: operation)
    case .success(let reply):
      guard let microseconds = reply.arguments.first?.integer else {
        throw MPRISError(
          .init(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "no Position"), operation: operation)
      }
      return .microseconds(microseconds)
    }
  }

  private func callPlayer(
    _ busName: String, _ member: String, doing operation: String,
    timeout: Duration? = nil
  ) async throws(MPRISError) {
    let call = DBusMethodCall(
      destination: busName, path: MPRISNames.path,
      interface: MPRISNames.playerInterface, member: member)
    // A cancelled pause or resume (the daemon stopping) waits no longer
    // for a player that does not answer.
    if case .failure(let failure) = await driver.call(
      call, timeout: timeout ?? callTimeout, cancellable: true)
    {
      throw MPRISError(failure, operation: operation)
    }
  }

  private static let matchRules = [
    "type='signal',sender='org.freedesktop.DBus',"
      + "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
      + "arg0namespace='org.mpris.MediaPlayer2'",
    "type='signal',interface='org.freedesktop.DBus.Properties',"
      + "member='PropertiesChanged',path='/org/mpris/MediaPlayer2'",
  ]
}

/// Reads one player: its owner, its process, its name and its state.
struct PlayerReader: Sendable {
  let driver: DBusConnectionDriver
  let timeout: Duration

  /// Reads a player and adds it to the tracker.
  ///
  /// It is added once its state is read, in order with its signals. A
  /// player that goes away meanwhile is left out.
  func read(
    _ busName: String, owner: String?, into tracker: PlayerTracker
  )
    async
  {
    var uniqueName = owner
    if uniqueName == nil {
      uniqueName =
        (try? await busCall("GetNameOwner", busName).get().arguments.first?
          .string) ?? nil
    }
    guard let uniqueName else { return }
    let pid =
      (try? await busCall("GetConnectionUnixProcessID", busName).get()
        .arguments.first?.integer) ?? nil
    var player = MediaPlayer(
      busName: busName, uniqueName: uniqueName,
      processID: pid.flatMap(Int32.init(exactly:)))
    if let root = try? await getAll(busName, MPRISNames.rootInterface).get() {
      player.applyRoot(root)
    }
    let named = player
    _ = await driver.call(
      getAllCall(busName, MPRISNames.playerInterface), timeout: timeout
    ) { result in
      // On the dispatch thread, in order with the player's signals.
      // A reply from another owner means the name changed hands: that
      // owner's own read adds it.
      guard case .success(let reply) = result, reply.sender == uniqueName,
        let properties = reply.arguments.first?.stringKeyedDictionary
      else { return }
      var read = named
      read.apply(properties)
      // A read of /proc, on the driver's own thread.
      let process = pid.flatMap(Int32.init(exactly:))
      read.processName = process.flatMap(ProcessFiles.commandName(of:))
      read.flatpakAppID = process.flatMap(ProcessFiles.flatpakAppID(of:))
      tracker.insert(read)
    }
  }

  private func busCall(
    _ member: String, _ name: String
  ) async -> Result<DBusReply, DBusFailure> {
    await driver.call(
      DBusMethodCall(
        destination: MPRISNames.bus, path: MPRISNames.busPath,
        interface: MPRISNames.bus, member: member, arguments: [.string(name)]),
      timeout: timeout)
  }

  private func getAllCall(
    _ busName: String, _ interface: String
  ) -> DBusMethodCall {
    DBusMethodCall(
      destination: busName, path: MPRISNames.path,
      interface: MPRISNames.properties, member: "GetAll",
      arguments: [.string(interface)])
  }

  private func getAll(
    _ busName: String, _ interface: String
  ) async -> Result<[String: DBusValue], DBusFailure> {
    await driver.call(getAllCall(busName, interface), timeout: timeout).map {
      $0.arguments.first?.stringKeyedDictionary ?? [:]
    }
  }
}
