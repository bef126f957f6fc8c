// Where the daemon keeps its files, read the same way by accessoryd and by
// acctl: the XDG base directories, and the state directory's lock file.

import FoundationEssentials
import Glibc
import SystemCalls

/// The XDG base directories of the user, as the specification reads them: a
/// variable that is unset or not an absolute path is ignored.
public enum UserDirectories {
  /// `$XDG_CONFIG_HOME`, else `$HOME/.config`.
  public static func configHome(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    absolute(environment["XDG_CONFIG_HOME"])
      ?? home(environment) + "/.config"
  }

  /// `$XDG_STATE_HOME`, else `$HOME/.local/state`.
  public static func stateHome(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    absolute(environment["XDG_STATE_HOME"])
      ?? home(environment) + "/.local/state"
  }

  private static func absolute(_ path: String?) -> String? {
    path.flatMap { $0.hasPrefix("/") ? $0 : nil }
  }

  private static func home(_ environment: [String: String]) -> String {
    environment["HOME"]
      ?? FileManager.default.homeDirectoryForCurrentUser.path
  }
}

/// The lock file of a state directory, `accessoryd.lock`: the daemon holds
/// it with `flock(2)` while it runs and writes its pid and socket in it.
public enum StateLockFile {
  /// The lock file's name in the state directory.
  public static let name = "accessoryd.lock"

  /// Who holds a state directory's lock.
  public enum Holder: Sendable, Equatable {
    /// A daemon holds it; what it wrote, such as `pid 42, socket /run/…`.
    case held(String)
    /// No daemon holds it.
    case free
  }

  /// The line a daemon writes into the lock file it holds.
  public static func record(pid: Int32, socketPath: String) -> String {
    "pid \(pid), socket \(socketPath)\n"
  }

  /// Whether a record read from the lock file names a socket.
  public static func record(_ record: String, names socketPath: String) -> Bool
  {
    record.hasSuffix(", socket \(socketPath)")
  }

  /// The record in an open lock file, without its newline.
  public static func readRecord(_ file: borrowing FileDescriptor) -> String {
    let bytes = (try? file.read(upTo: 4096, at: 0)) ?? []
    let line = bytes.prefix { $0 != 0x0A }
    let text = String(decoding: line, as: UTF8.self)
    return text.isEmpty ? "its pid is not recorded" : text
  }

  /// Who holds the lock of a state directory, found without taking it.
  public static func holder(ofDirectory directory: String) -> Holder {
    guard
      let file = try? FileDescriptor.open(directory + "/" + name, .readOnly)
    else { return .free }
    // A shared lock is refused while the daemon holds its exclusive one;
    // if it is granted, it is let go at once with the descriptor.
    guard (try? file.tryLock(.shared)) == false else { return .free }
    return .held(readRecord(file))
  }
}
