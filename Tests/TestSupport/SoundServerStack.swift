// Which distribution's sound servers the tests run: this machine's own
// (Debian 12: PulseAudio 16, PipeWire 0.3.65 with WirePlumber 0.4), or
// those of another Debian release unpacked in a directory, such as Debian
// 13's (PulseAudio 17, PipeWire 1.4 with WirePlumber 0.5).

import Foundation

/// The sound servers the tests of this process start.
///
/// `ACCESSORYD_SERVER_ROOT` names a Debian root made by debootstrap with
/// the servers installed, such as the one `scripts/test-stacks` prepares;
/// the daemons then run inside it through `chroot`, while the clients
/// (`pactl`, `pacat`, the players, accessoryd itself) stay this machine's
/// and reach the servers' sockets over the same paths: the root sees this
/// machine's `/tmp`, where every server directory is made. Without the
/// variable, the servers are this machine's.
public enum SoundServerStack: Sendable, Equatable, CustomStringConvertible {
  /// This machine's servers.
  case host
  /// The servers installed in a root directory.
  case root(String)

  /// The stack this process runs, from `ACCESSORYD_SERVER_ROOT`.
  public static let current: SoundServerStack = {
    guard
      let root = ProcessInfo.processInfo.environment["ACCESSORYD_SERVER_ROOT"],
      !root.isEmpty
    else { return .host }
    return .root(root)
  }()

  /// "this machine's" or the root's Debian release, such as "Debian 13
  /// (trixie)", for messages.
  public var description: String {
    switch self {
    case .host: "this machine's servers"
    case .root(let path):
      (try? String(contentsOfFile: path + "/etc/os-release", encoding: .utf8))
        .flatMap { text in
          text.split(separator: "\n").first {
            $0.hasPrefix("PRETTY_NAME=")
          }?.dropFirst("PRETTY_NAME=".count).trimmingCharacters(
            in: CharacterSet(charactersIn: "\""))
        } ?? path
    }
  }

  /// The path a daemon runs from: inside the root, the program's path
  /// there.
  ///
  /// - Parameter program: The program's name, such as `pipewire`.
  /// - Returns: The path to pass to ``launch(_:arguments:)``.
  /// - Throws: ``FixtureError`` if the stack has no such program.
  func daemonPath(_ program: String, searchPath: String) throws -> String {
    switch self {
    case .host:
      return try ChildProcess.executablePath(
        of: program, searchPath: searchPath)
    case .root(let root):
      for directory in ["/usr/bin", "/usr/sbin", "/bin", "/sbin"]
      where FileManager.default.isExecutableFile(
        atPath: root + directory + "/" + program)
      {
        return directory + "/" + program
      }
      throw FixtureError("\(root) has no \(program)")
    }
  }

  /// The executable and arguments that start a daemon of the stack.
  ///
  /// - Parameters:
  ///   - path: What ``daemonPath(_:searchPath:)`` returned.
  ///   - arguments: The daemon's arguments.
  func launch(
    _ path: String, arguments: [String]
  ) -> (executable: String, arguments: [String]) {
    switch self {
    case .host: (path, arguments)
    case .root(let root): ("/usr/sbin/chroot", [root, path] + arguments)
    }
  }
}
