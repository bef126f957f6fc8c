// What accessoryd holds muted, on disk as it mutes it. A mute lives on the
// sound server, not in the daemon: a daemon that dies while it holds
// streams muted (a crash, the kernel's OOM killer, systemd's stop timeout)
// leaves them muted, and only the next daemon can give them back.

import AccessoryControl
import AccessorySetupKit
import ConcurrencyHelpers
import DaemonLifecycle
import FoundationEssentials
import SoundServerModel
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The streams accessoryd holds muted, kept in a file as they are muted and
/// given back, so that the next daemon can take over what a daemon that
/// died left muted.
///
/// The file, `muted-streams.json`, lives in the state directory, which one
/// daemon at a time holds. It names the sound server by its name and the
/// cookie it drew when it started, so that a server that restarted since
/// (whose stream indexes start again) is never taken for the same one.
/// Each change is written on a thread of its own, newest last; the file is
/// removed once nothing is held muted.
public final class MutedStreamLedger: Sendable {
  /// The file's name in the state directory.
  public static let fileName = "muted-streams.json"

  /// One stream held muted.
  public struct Entry: Codable, Hashable, Sendable {
    /// The stream's index on the server.
    public var stream: UInt32
    /// The headphones it is muted for.
    public var accessory: HeadphonesIdentity

    /// Creates an entry.
    public init(stream: UInt32, accessory: HeadphonesIdentity) {
      self.stream = stream
      self.accessory = accessory
    }
  }

  /// One run of a sound server: its name and the cookie it drew at start.
  public struct Server: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The server's name, such as `pulseaudio`.
    public var name: String
    /// The server's cookie.
    public var cookie: UInt32

    /// The server of a state the link reported.
    public init(_ info: ServerInfo) {
      self.name = info.serverName
      self.cookie = info.cookie
    }

    /// "pulseaudio, cookie 31ace5f2", for the log.
    public var description: String {
      "\(name), cookie \(String(cookie, radix: 16))"
    }
  }

  /// What a daemon before this one left muted.
  public struct LeftOver: Sendable, Equatable {
    /// The server the streams were muted on.
    public var server: Server
    /// The streams, in the order they were recorded.
    public var streams: [Entry]

    /// Creates a record of what was left.
    package init(server: Server, streams: [Entry]) {
      self.server = server
      self.streams = streams
    }
  }

  /// The file's contents.
  private struct Document: Codable, Equatable {
    var version = 1
    var server: Server
    var streams: [Entry]
  }

  private struct State {
    var server: Server?
    /// What the media controller holds muted.
    var held: [UInt32: HeadphonesIdentity] = [:]
    /// What the link muted as a sink vanished, until the controller takes
    /// it over.
    var reflex: [UInt32: HeadphonesIdentity] = [:]
    /// Counts the changes, for the writer.
    var generation: UInt64 = 0
    /// The generation the file holds.
    var written: UInt64 = 0
    /// Whether a writer thread runs: one at a time.
    var writerRunning = false

    /// Counts a change the file does not hold yet; true if a writer must
    /// be started for it.
    mutating func noteChange() -> Bool {
      generation += 1
      guard !writerRunning else { return false }
      writerRunning = true
      return true
    }

    var document: Document? {
      guard let server else { return nil }
      let all = held.merging(reflex) { first, _ in first }
      guard !all.isEmpty else { return nil }
      return Document(
        server: server,
        streams: all.sorted { $0.key < $1.key }.map {
          Entry(stream: $0.key, accessory: $0.value)
        })
    }
  }

  /// The file's path.
  public let path: String
  private let state = Mutex(State())
  /// Held while the file is written, so that writes never overlap and the
  /// newest state is written last.
  private let writing = Mutex(())

  /// Creates the ledger of a state directory.
  ///
  /// - Parameter stateDirectory: The daemon's state directory.
  public init(stateDirectory: String) {
    self.path = stateDirectory + "/" + Self.fileName
  }

  // MARK: - At start

  /// Reads what a daemon before this one left muted, if anything.
  ///
  /// Blocking: call it off the shared task threads.
  ///
  /// - Returns: What was left, or nil for nothing; a file that does not
  ///   parse is reported as the error's text.
  public func readLeftOver() -> Result<LeftOver?, LeftOverError> {
    let bytes: [UInt8]
    do {
      bytes = try FileDescriptor.open(path, [.readOnly, .noFollow])
        .readToEnd()
    } catch {
      if error == .noSuchFileOrDirectory { return .success(nil) }
      return .failure(LeftOverError(path: path, reason: error.message))
    }
    guard
      let document = try? JSONDecoder().decode(
        Document.self, from: Data(bytes)),
      document.version == 1
    else {
      return .failure(
        LeftOverError(path: path, reason: "it is not a list of muted streams"))
    }
    return .success(
      document.streams.isEmpty
        ? nil : LeftOver(server: document.server, streams: document.streams))
  }

  /// A ledger file that cannot be read.
  public struct LeftOverError: Error, Equatable, CustomStringConvertible {
    /// The file's path.
    public let path: String
    /// Why it cannot be read.
    public let reason: String
    /// A message naming the path and the reason.
    public var description: String {
      "cannot read '\(path)': \(reason)"
    }

    /// Creates the error for a file and why it cannot be read.
    package init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }
  }

  // MARK: - Following the mutes

  /// Names the server the streams are on; a new one drops the streams of
  /// the old, which went with it.
  public func useServer(_ server: Server) {
    change { state in
      guard state.server != server else { return }
      state.server = server
      state.held = [:]
      state.reflex = [:]
    }
  }

  /// Records streams the link muted as their accessory's output vanished,
  /// from the link's own thread, before the controller hears of them.
  public func mutedAsTheirSinkVanished(
    _ streams: [UInt32], for accessory: HeadphonesIdentity
  ) {
    change { state in
      for stream in streams { state.reflex[stream] = accessory }
    }
  }

  /// The controller has taken over streams the link muted: from now on
  /// ``hold(_:)`` says whether they stay.
  public func takeOver(_ streams: [UInt32]) {
    change { state in
      for stream in streams { state.reflex[stream] = nil }
    }
  }

  /// The streams the link muted that the controller has not taken over:
  /// the news of them has not reached it.
  public var notTakenOver: [UInt32: HeadphonesIdentity] {
    state.withLock { $0.reflex }
  }

  /// Records everything the controller holds muted now.
  public func hold(_ streams: [UInt32: HeadphonesIdentity]) {
    change { state in state.held = streams }
  }

  /// Writes the state again even if it did not change: the file may hold
  /// something else, such as what an earlier daemon left, now taken over.
  public func rewrite() {
    if state.withLock({ $0.noteChange() }) { startWriter() }
  }

  /// Waits until the file holds the latest change, or a write failed.
  public func flush() async {
    await BlockingPool.shared.run(named: "accessoryd.muted") {
      _ = self.writeLatest()
    }
  }

  private func change(_ body: (inout State) -> Void) {
    let startsWriter = state.withLock { state in
      let before = state.document
      body(&state)
      guard state.document != before else { return false }
      return state.noteChange()
    }
    if startsWriter { startWriter() }
  }

  /// Starts the one writer thread, which writes until the file holds the
  /// newest state; a write that fails leaves it to the next change.
  private func startWriter() {
    startThread(named: "accessoryd.muted") {
      while self.writeLatest() {
        let done = self.state.withLock { state in
          guard state.written < state.generation else {
            state.writerRunning = false
            return true
          }
          return false
        }
        if done { return }
      }
      self.state.withLock { $0.writerRunning = false }
    }
  }

  /// Writes the newest state, unless the file holds it already.
  ///
  /// - Returns: False if the file could not be written.
  private func writeLatest() -> Bool {
    writing.withLock { _ in
      let (document, generation, written) = state.withLock {
        ($0.document, $0.generation, $0.written)
      }
      guard generation > written else { return true }
      guard write(document) else { return false }
      state.withLock { $0.written = max($0.written, generation) }
      return true
    }
  }

  /// Replaces the file with a document, or removes it for none.
  ///
  /// - Returns: Whether the file holds the document now.
  private func write(_ document: Document?) -> Bool {
    guard let document else {
      return unlink(path) == 0 || errno == ENOENT
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(document) else { return false }
    let temporary = path + ".tmp"
    // No fsync: the file outlives the daemon, not the machine, and the
    // streams it names do not outlive the machine either.
    let complete: Bool
    do {
      try FileDescriptor.open(
        temporary, [.writeOnly, .create, .truncate, .noFollow]
      ).writeAll([UInt8](data))
      complete = true
    } catch {
      complete = false
    }
    guard complete, rename(temporary, path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }
}
