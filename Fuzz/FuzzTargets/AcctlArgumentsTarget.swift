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
    // Arguments that could name a file are kept off the file system (a
    // descriptor file of /dev/zero would be read for ever).
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
      .map { $0.contains("/") ? "missing.json" : $0 }
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
