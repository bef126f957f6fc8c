// Writing to the standard streams and ending the process, without
// Foundation.

import Glibc
import Logging

/// One of the process's standard output streams.
enum StandardStream {
  case output
  case error

  /// Writes text, unbuffered, to the stream.
  func write(_ text: String) {
    writeUnbuffered(text, toDescriptor: self == .output ? 1 : 2)
  }
}

/// Ends the process with an exit code, flushing buffered output first.
func terminate(with code: ExitCode) -> Never {
  exit(code.rawValue)
}
