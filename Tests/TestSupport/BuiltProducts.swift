// Finding the package's executables, built next to the test bundle.

import Foundation
import SystemCalls

/// The error for an executable that is not built.
public struct ProductNotBuilt: Error, CustomStringConvertible {
  /// The executable's name.
  public let name: String

  /// A message naming the executable and how to build it.
  public var description: String {
    "\(name) is not built next to \(CommandLine.arguments[0]); run "
      + "'swift build --build-tests' first"
  }
}

/// Returns the location of an executable of this package, built next to
/// the test bundle (`.build/<triple>/debug/`).
///
/// - Parameter name: The executable's name, such as `acctl`.
/// - Throws: ``ProductNotBuilt`` if it is not there.
public func builtProduct(_ name: String) throws -> URL {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    directory.deleteLastPathComponent()
  }
  throw ProductNotBuilt(name: name)
}

/// Puts an executable of this package at `path`, for a test that runs it
/// from elsewhere (as another user, from a directory of its own).
///
/// A hard link where the file system allows, else a copy written through
/// a close-on-exec descriptor. A copy that another thread's child process
/// inherited open for writing cannot be executed (`ETXTBSY`) until that
/// child executes its own program; a link is never open for writing, and
/// a close-on-exec copy is inherited only until then.
///
/// - Parameters:
///   - name: The executable's name, such as `acctl`.
///   - path: Where to put it; the name must be free.
public func placeBuiltProduct(_ name: String, at path: String) throws {
  let source = try builtProduct(name).path
  guard link(source, path) != 0 else { return }
  guard Errno.current == .crossDeviceLink else { throw Errno.current }
  let bytes = try FileDescriptor.open(source, .readOnly).readToEnd()
  let copy = try FileDescriptor.open(
    path, [.writeOnly, .create, .exclusive], permissions: 0o755)
  try copy.writeAll(bytes)
  // Executable by everyone, whatever the umask took away.
  guard fchmod(copy.rawValue, 0o755) == 0 else { throw Errno.current }
  try copy.close()
}
