// Finding the package's executables, built next to the test bundle.

import Foundation

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
