// What /proc says of a process: its command name, its parent, and the
// Flatpak application it runs as. The reads are small and blocking: call
// them off the shared task threads.

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

  /// The Flatpak application a process runs as: the `name` of the
  /// `[Application]` group of the `.flatpak-info` file at the root of its
  /// sandbox (`/proc/PID/root/.flatpak-info`), which Flatpak puts in the
  /// sandbox of the application and of its D-Bus proxy.
  package static func flatpakAppID(of pid: Int32) -> String? {
    guard let text = contents(of: "/proc/\(pid)/root/.flatpak-info") else {
      return nil
    }
    return flatpakAppID(fromInfo: text)
  }

  /// The application's name in the text of a `.flatpak-info` file, a
  /// key file: `name=` in the `[Application]` group.
  package static func flatpakAppID(fromInfo text: String) -> String? {
    var inApplication = false
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("[") {
        inApplication = trimmed.hasPrefix("[Application]")
        continue
      }
      guard inApplication, trimmed.hasPrefix("name") else { continue }
      let rest = trimmed.dropFirst(4).drop { $0 == " " || $0 == "\t" }
      guard rest.first == "=" else { continue }
      let value = rest.dropFirst().trimmingSpaces
      return value.isEmpty ? nil : String(value)
    }
    return nil
  }

  /// A small file's text, at most 64 KiB.
  private static func contents(of path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65_536 {
      let count = fread(&buffer, 1, buffer.count, file)
      if count <= 0 { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
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

extension Substring {
  /// The text without spaces and tabs at either end.
  fileprivate var trimmingSpaces: Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return self[first...last]
  }
}
