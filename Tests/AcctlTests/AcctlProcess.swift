// Runs the built acctl binary and captures what it prints and its exit
// status, for golden tests of whole transcripts.

import Foundation
import TestSupport

/// What one run of acctl printed, and how it ended.
struct Transcript: Equatable, CustomStringConvertible {
  var output: String
  var error: String
  var status: Int32

  var description: String {
    "status \(status)\n--- stdout\n\(output)--- stderr\n\(error)---"
  }
}

/// Runs acctl with arguments and returns its transcript.
///
/// The environment is the test's, without `ACCESSORYD_SOCKET`, so only
/// `--socket` chooses the daemon.
func acctl(_ arguments: String...) throws -> Transcript {
  try acctl(arguments)
}

/// Runs acctl with arguments and returns its transcript.
///
/// - Parameters:
///   - arguments: The command line after `acctl`.
///   - environment: Variables to set on top of the test's environment.
///   - directory: The working directory; nil for the test's.
func acctl(
  _ arguments: [String], environment extra: [String: String] = [:],
  directory: URL? = nil
) throws -> Transcript {
  let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("acctl-run-\(UUID().uuidString)")
  try FileManager.default.createDirectory(
    at: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: scratch) }
  let outputURL = scratch.appendingPathComponent("stdout")
  let errorURL = scratch.appendingPathComponent("stderr")
  _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
  _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
  let output = try FileHandle(forWritingTo: outputURL)
  let error = try FileHandle(forWritingTo: errorURL)

  let process = Process()
  process.executableURL = try builtProduct("acctl")
  process.arguments = arguments
  var environment = ProcessInfo.processInfo.environment
  environment["ACCESSORYD_SOCKET"] = nil
  environment.merge(extra) { $1 }
  process.environment = environment
  process.currentDirectoryURL = directory
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = output
  process.standardError = error
  try process.run()
  process.waitUntilExit()
  try output.close()
  try error.close()
  return Transcript(
    output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
    error: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self),
    status: process.terminationStatus)
}
