// Writing to the standard streams and ending the process, without
// Foundation.

import Glibc

/// One of the process's standard output streams.
enum StandardStream {
  case output
  case error

  /// Writes text, unbuffered, to the stream.
  func write(_ text: String) {
    let descriptor: Int32 = self == .output ? 1 : 2
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(
          descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}

/// Ends the process with an exit code, flushing buffered output first.
func terminate(with code: ExitCode) -> Never {
  exit(code.rawValue)
}
