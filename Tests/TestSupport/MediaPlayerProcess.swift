// A real MPRIS media player for tests: mpv with Debian's mpv-mpris plugin,
// looping a tone this file writes, on a private session bus and, when
// given one, playing to a private sound server.

import Foundation
import Glibc

/// One `mpv` process that serves MPRIS on a ``PrivateBus``.
///
/// ```swift
/// let bus = try await PrivateBus.start()
/// let player = try await MediaPlayerProcess.start(on: bus, server: server)
/// // …
/// await player.stop()
/// ```
///
/// Tests that need it fail, never skip, when `mpv` or `mpv-mpris` is
/// missing (`scripts/install-dependencies test` installs both).
public final class MediaPlayerProcess: Sendable {
  /// mpv's process identifier: the process MPRIS reports for its name.
  public let processID: Int32

  /// The client name its playback stream carries
  /// (`application.name`), such as `player-1`.
  public let clientName: String

  private let process: ChildProcess
  private let bus: PrivateBus

  /// Where Debian's mpv-mpris plugin lives.
  public static let mprisPlugin = "/usr/lib/mpv-mpris/mpris.so"

  private init(process: ChildProcess, clientName: String, bus: PrivateBus) {
    self.process = process
    self.processID = process.processIdentifier
    self.clientName = clientName
    self.bus = bus
  }

  deinit {
    process.send(SIGKILL)
  }

  /// Starts mpv looping a tone.
  ///
  /// - Parameters:
  ///   - bus: The session bus it serves MPRIS on.
  ///   - server: The sound server it plays to; nil plays to nothing
  ///     (`--ao=null`), for tests of MPRIS alone.
  ///   - clientName: Its stream's client name.
  ///   - paused: Whether it starts paused.
  /// - Throws: ``FixtureError`` if mpv or its plugin is missing.
  public static func start(
    on bus: PrivateBus, server: SoundServer? = nil,
    clientName: String = "player", paused: Bool = false
  ) async throws -> MediaPlayerProcess {
    guard access(mprisPlugin, R_OK) == 0 else {
      throw FixtureError(
        "mpv-mpris is not installed (no \(mprisPlugin)); run "
          + "scripts/install-dependencies test")
    }
    let mpv = try ChildProcess.executablePath(
      of: "mpv", searchPath: SoundServer.searchPath)
    let tone = "\(bus.directory)/tone.wav"
    if access(tone, R_OK) != 0 {
      try ToneFile.write(to: tone)
    }
    var environment = bus.environment
    if let server {
      environment.merge(server.environment) { _, new in new }
    }
    var arguments = [
      "--no-config", "--script=\(mprisPlugin)", "--no-video", "--loop=inf",
      "--no-terminal", "--idle=no", "--audio-client-name=\(clientName)",
      "--ao=\(server == nil ? "null" : "pulse")",
    ]
    if paused { arguments.append("--pause") }
    arguments.append(tone)
    let process = try await bus.spawn(
      mpv, arguments: arguments, environment: environment,
      output: "\(bus.directory)/\(clientName).log",
      errorOutput: "\(bus.directory)/\(clientName).log")
    return MediaPlayerProcess(
      process: process, clientName: clientName, bus: bus)
  }

  /// Ends the player as a person quitting it would (SIGTERM), and waits.
  public func stop() async {
    process.send(SIGTERM)
    if await !process.waitForExit(until: .now + .seconds(5)) {
      process.send(SIGKILL)
      _ = await process.waitForExit(until: .now + .seconds(5))
    }
  }

  /// Plays or pauses it as a person would, with `playerctl`-like calls
  /// from another client (`gdbus`), by its bus name.
  public func call(_ member: String, busName: String) async throws {
    _ = try await bus.gdbus([
      "call", "--dest", busName, "--object-path",
      "/org/mpris/MediaPlayer2", "--method",
      "org.mpris.MediaPlayer2.Player.\(member)",
    ])
  }
}

/// A short stereo 440 Hz tone as a WAV file, for players to loop.
enum ToneFile {
  /// Writes one second of 16-bit 48 kHz stereo sine.
  static func write(to path: String) throws {
    let rate = 48_000
    var samples = Data()
    samples.reserveCapacity(rate * 4)
    for index in 0..<rate {
      let value = Int16(
        8_000 * sin(2 * Double.pi * 440 * Double(index) / 48_000))
      withUnsafeBytes(of: value.littleEndian) { samples.append(contentsOf: $0) }
      withUnsafeBytes(of: value.littleEndian) { samples.append(contentsOf: $0) }
    }
    var file = Data("RIFF".utf8)
    func append<Value: FixedWidthInteger>(_ value: Value) {
      withUnsafeBytes(of: value.littleEndian) { file.append(contentsOf: $0) }
    }
    append(UInt32(36 + samples.count))
    file.append(contentsOf: Data("WAVEfmt ".utf8))
    append(UInt32(16))
    append(UInt16(1))  // PCM
    append(UInt16(2))  // channels
    append(UInt32(rate))
    append(UInt32(rate * 4))  // bytes per second
    append(UInt16(4))  // block align
    append(UInt16(16))  // bits per sample
    file.append(contentsOf: Data("data".utf8))
    append(UInt32(samples.count))
    file.append(samples)
    try file.write(to: URL(fileURLWithPath: path))
  }
}
