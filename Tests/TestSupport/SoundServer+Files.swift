// The files around a SoundServer: the programs it runs, its private
// directory, and the tails of its logs for failure messages.

import Foundation
import Glibc
import SystemCalls

extension SoundServer {
  /// The directories searched for programs, also the `PATH` of children.
  static let searchPath: String = {
    let standard =
      "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    guard let host = ProcessInfo.processInfo.environment["PATH"],
      !host.isEmpty
    else { return standard }
    return "\(host):\(standard)"
  }()

  /// Finds every program a server of a kind needs, or throws naming the
  /// missing one.
  static func resolvePrograms(
    for kind: SoundServerKind
  ) throws -> [String: String] {
    let daemons =
      switch kind {
      case .pulseAudio: ["pulseaudio"]
      case .pipeWire:
        ["dbus-daemon", "pipewire", "wireplumber", "pipewire-pulse"]
      }
    var programs: [String: String] = [:]
    for program in daemons {
      programs[program] = try SoundServerStack.current.daemonPath(
        program, searchPath: searchPath)
    }
    // The clients are this machine's, as accessoryd is.
    for program in ["pactl", "pacat", "sh"] {
      programs[program] = try ChildProcess.executablePath(
        of: program, searchPath: searchPath)
    }
    return programs
  }

  /// Creates a fresh directory only this user can enter, like `mktemp -d`.
  ///
  /// Uses `TMPDIR` when it is a plain absolute path short enough for the
  /// socket paths below it (at most 108 bytes), and `/tmp` otherwise.
  static func makePrivateDirectory(prefix: String) throws -> String {
    var base = "/tmp"
    if let temporary = ProcessInfo.processInfo.environment["TMPDIR"],
      temporary.hasPrefix("/"), temporary.utf8.count <= 48,
      !temporary.contains(where: { $0.isWhitespace || "'\"\\".contains($0) })
    {
      base = temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
    }
    var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!) != nil
    }
    guard created else {
      throw FixtureError(
        "cannot create a directory in \(base): \(Errno.current)")
    }
    return String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self
    )
  }

  /// The contents of a text file, or an empty string.
  static func readFile(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      return ""
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// The last `lines` lines of a log file, headed `==> name <==`.
  static func tail(ofLog path: String, lines: Int) -> String {
    let tail = readFile(path).split(
      separator: "\n", omittingEmptySubsequences: false
    ).suffix(lines + 1).joined(separator: "\n")
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return "==> \(name) <==\n\(tail)"
  }

  /// The tails of every `.log` file in a directory, in name order.
  static func tailsOfLogs(in directory: String, lines: Int) -> String {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".log") }.sorted().map {
      tail(ofLog: "\(directory)/\($0)", lines: lines)
    }.joined(separator: "\n")
  }
}
