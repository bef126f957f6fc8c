// What /proc says of a process: its command name and its parent. The
// reads are small and blocking: call them off the shared task threads.

import Glibc

/// Reads a process's files under `/proc`.
package enum ProcessFiles {
  /// A process's command name, from `/proc/PID/comm`.
  package static func commandName(of pid: Int32) -> String? {
    guard let line = firstLine(of: "/proc/\(pid)/comm") else { return nil }
    return line.hasSuffix("\n") ? String(line.dropLast()) : line
  }

  /// A process's parent: the fourth field of `/proc/PID/stat`.
  package static func parent(of pid: Int32) -> Int32? {
    guard let line = firstLine(of: "/proc/\(pid)/stat") else { return nil }
    // The command name, in parentheses, may hold spaces: read after its end.
    guard let close = line.lastIndex(of: ")") else { return nil }
    let fields = line[line.index(after: close)...].split(separator: " ")
    guard fields.count >= 2 else { return nil }
    return Int32(fields[1])
  }

  /// The first line of a small file, at most 511 bytes.
  private static func firstLine(of path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 512)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    return String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
      as: UTF8.self)
  }
}
