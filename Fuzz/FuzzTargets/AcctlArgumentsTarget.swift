// acctl's command line: every subcommand's options and values, and the
// messages and exit codes of the refusals.

import AcctlCommands
import CommandLineKit

extension FuzzTarget {
  /// An acctl command line.
  static let acctlArguments = FuzzTarget(
    name: "acctl-arguments",
    summary: "acctl's command line, NUL-separated arguments"
  ) { bytes in
    // The one option parsing reads a file of is kept off the file system
    // (a descriptor file of /dev/zero would be read for ever).
    var arguments = bytes.split(separator: 0, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    for index in arguments.indices {
      if arguments[index].hasPrefix("--descriptor=") {
        arguments[index] = "--descriptor=" + missingFile
      } else if index > 0, arguments[index - 1] == "--descriptor" {
        arguments[index] = missingFile
      }
    }
    do {
      _ = try Acctl.parseAsRoot(arguments)
    } catch {
      let message = Acctl.fullMessage(for: error)
      let code = Acctl.exitCode(for: error)
      if code != .success, message.isEmpty {
        return "a refusal without a message, exit code \(code)"
      }
    }
    return nil
  }
}

/// A descriptor file that cannot exist.
private let missingFile = "/nonexistent/accessoryd-fuzz/descriptor.json"
