// A stand-in for accessoryd: a Unix socket listener on its own thread that
// records each JSON-RPC request and answers with canned lines.

import AccessoryControl
import ConcurrencyHelpers
import Foundation
import Glibc
import SystemCalls

/// A fake control socket that answers requests with canned JSON-RPC lines.
final class FakeDaemon: Sendable {
  /// What the fake does with one request.
  enum Reply: Sendable {
    /// Sends these lines, in order, each with its newline, and then closes
    /// the connection if asked to.
    case lines([String], close: Bool = false)
    /// Closes the connection without answering.
    case close
  }

  /// The socket's path.
  let path: String
  private let directory: String
  private let listener: Int32
  private let answer: @Sendable (ControlRequest) -> Reply
  private let received = Mutex<[ControlRequest]>([])
  private let receivedLines = Mutex<[String]>([])

  /// Starts listening.
  ///
  /// - Parameter answer: Returns the reply to each request.
  init(answer: @escaping @Sendable (ControlRequest) -> Reply) throws {
    var template = Array("/tmp/acctl-fake-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw Errno.current }
    directory = String(cString: made)
    path = directory + "/control.sock"
    self.answer = answer

    listener = try UnixSocket.bound(.stream, to: UnixSocketAddress(path: path))
    guard listen(listener, 8) == 0 else {
      let code = Errno.current
      Glibc.close(listener)
      throw code
    }
    Thread.detachNewThread { [self] in
      serve()
      Glibc.close(listener)
      unlink(path)
      rmdir(directory)
    }
  }

  /// Replies with a result to every request.
  ///
  /// - Parameter result: The JSON text of the result, by method.
  convenience init(results: [String: String]) throws {
    try self.init { request in
      guard let result = results[request.method] else {
        return .lines([
          FakeDaemon.error(
            request, code: .methodNotFound, message: "method not found")
        ])
      }
      return .lines([FakeDaemon.result(request, result)])
    }
  }

  /// The requests received so far, in order.
  var requests: [ControlRequest] { received.withLock { $0 } }

  /// The request lines received so far, as sent.
  var lines: [String] { receivedLines.withLock { $0 } }

  /// Stops listening, returning at once.
  ///
  /// The listening thread then removes the socket.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
  }

  /// Returns a response line with a result.
  static func result(_ request: ControlRequest, _ json: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id(request)),"result":\#(json)}"#
  }

  /// Returns a response line with an error.
  static func error(
    _ request: ControlRequest, code: ControlErrorCode, message: String
  ) -> String {
    #"{"jsonrpc":"2.0","id":\#(id(request)),"error":{"code":\#(code.rawValue),"#
      + #""message":"\#(message)"}}"#
  }

  /// Returns a message as the daemon sends it, on one line.
  static func text(_ message: some Encodable) -> String {
    let json = (try? JSONValue(encoding: message)) ?? .null
    return String(decoding: json.serialized(), as: UTF8.self)
  }

  /// Returns a notification line for an event.
  static func event(_ json: String) -> String {
    #"{"jsonrpc":"2.0","method":"event","params":\#(json)}"#
  }

  private static func id(_ request: ControlRequest) -> String {
    let data = (try? JSONEncoder().encode(request.id ?? .null)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  private func serve() {
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        if errno == EINTR { continue }
        return
      }
      handle(connection)
      Glibc.close(connection)
    }
  }

  private func handle(_ connection: Int32) {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      while let newline = buffer.firstIndex(of: 0x0A) {
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        receivedLines.withLock {
          $0.append(String(decoding: line, as: UTF8.self))
        }
        guard
          let request = try? JSONDecoder().decode(
            ControlRequest.self, from: Data(line))
        else { return }
        received.withLock { $0.append(request) }
        switch answer(request) {
        case .close:
          return
        case .lines(let lines, let close):
          for reply in lines {
            let bytes = Array((reply + "\n").utf8)
            let sent = send(
              connection, bytes, bytes.count, Int32(MSG_NOSIGNAL))
            guard sent == bytes.count else { return }
          }
          if close { return }
        }
      }
      let count = recv(connection, &chunk, chunk.count, 0)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return }
      buffer.append(contentsOf: chunk[..<count])
    }
  }
}
