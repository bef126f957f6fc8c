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
func acctl(_ arguments: String...) async throws -> Transcript {
  try await acctl(arguments)
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
) async throws -> Transcript {
  var environment = ProcessInfo.processInfo.environment
  environment["ACCESSORYD_SOCKET"] = nil
  environment.merge(extra) { $1 }
  let result = try await runProgram(
    try builtProduct("acctl").path, arguments, environment: environment,
    directory: directory?.path)
  return Transcript(
    output: result.stdout, error: result.stderr,
    status: result.status ?? -1)
}
