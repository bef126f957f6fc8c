// Calls to the daemon, and the one table that turns their failures into
// acctl's exit codes (DESIGN.md, "acctl exit codes").

import AccessoryControl
import CommandLineKit
import FoundationEssentials
import Glibc
import SystemCalls

/// A connection to accessoryd, opened on the first call.
///
/// A failed call prints `Error: <message>` to standard error and throws the
/// ``ExitCode`` from ``exitCode(for:answered:)``.
final class Daemon {
  /// The control socket's path.
  let path: String
  private var client: ControlClient?
  /// Whether the daemon has answered a call on this connection.
  private(set) var answered = false

  /// Creates a connection that opens on the first call.
  init(path: String) {
    self.path = path
  }

  /// Calls a method and returns its result.
  ///
  /// - Throws: ``ExitCode`` after printing the error.
  func call(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
    do {
      let client = try connect()
      let result = try client.call(method, params: params)
      answered = true
      return result
    } catch {
      throw fail(error)
    }
  }

  /// Sends a typed request, as ``call(_:)-(Request)`` does, to a daemon
  /// that may be older than acctl.
  ///
  /// - Returns: The result as it came, or nil when the daemon does not
  ///   know the method.
  /// - Throws: ``ExitCode`` after printing any other error.
  func callIfKnown<Request: DaemonRequest>(
    _ request: Request
  ) throws -> JSONValue? {
    do {
      let client = try connect()
      let result = try client.call(Request.method, params: request.params)
      answered = true
      return result
    } catch .remote(let error) where error.code == .methodNotFound {
      answered = true
      return nil
    } catch {
      throw fail(error)
    }
  }

  /// Sends a typed request and returns its result as it came, to print
  /// whole or render.
  ///
  /// - Throws: ``ExitCode`` after printing the error.
  func call<Request: DaemonRequest>(_ request: Request) throws -> JSONValue {
    try call(Request.method, request.params)
  }

  /// Sends a typed request; a refusal with one of the given codes comes
  /// back unprinted, for the caller to answer in its own way.
  ///
  /// - Throws: ``ExitCode`` after printing any other error.
  func call<Request: DaemonRequest>(
    _ request: Request, answering codes: Set<ControlErrorCode>
  ) throws -> Result<JSONValue, ControlError> {
    do {
      let client = try connect()
      let result = try client.call(Request.method, params: request.params)
      answered = true
      return .success(result)
    } catch .remote(let error) where codes.contains(error.code) {
      answered = true
      return .failure(error)
    } catch {
      throw fail(error)
    }
  }

  /// Prints a refusal that ``call(_:answering:)`` returned, and returns the
  /// exit code it ends acctl with.
  func fail(_ refusal: ControlError) -> ExitCode {
    fail(.remote(refusal))
  }

  /// Why BlueZ could not be asked, as the daemon reports it, in a
  /// person's words; nil while BlueZ runs, or from a daemon that does not
  /// say.
  ///
  /// - Throws: ``ExitCode`` after printing an error of the call.
  func blueZNotAsked() throws -> String? {
    guard let result = try callIfKnown(BluetoothStatusRequest()),
      let status = try? ControlClient.decode(
        result, as: BluetoothStatus.self, of: BluetoothStatusRequest.method)
    else { return nil }
    return BluetoothStatus.whyNotAsked(status.state)
  }

  /// Reads a method's result as the message it answers with.
  ///
  /// - Throws: ``ExitCode`` after printing what does not fit.
  static func decode<Message: Decodable>(
    _ result: JSONValue, as type: Message.Type, of method: String
  ) throws -> Message {
    do {
      return try ControlClient.decode(result, as: type, of: method)
    } catch {
      Output.error("Error: \(error.description)")
      throw exitCode(for: error, answered: true)
    }
  }

  /// Prints a method's result: as JSON with `json`, otherwise as the text
  /// `render` makes of the message it is.
  ///
  /// - Throws: ``ExitCode`` if the result is not that message.
  static func show<Message: Decodable>(
    _ result: JSONValue, of method: String, json: Bool,
    _ render: (Message) -> String
  ) throws {
    if json {
      Output.print(Rendering.json(result))
    } else {
      Output.print(render(try decode(result, as: Message.self, of: method)))
    }
  }

  /// Waits for the next notification, such as an event.
  ///
  /// - Throws: ``ExitCode`` after printing the error.
  func nextNotification() throws -> ControlResponse {
    do {
      return try connect().nextNotification()
    } catch {
      throw fail(error)
    }
  }

  private func connect() throws(ControlClientError) -> ControlClient {
    if let client { return client }
    let client = try ControlClient(path: path)
    self.client = client
    return client
  }

  private func fail(_ error: ControlClientError) -> ExitCode {
    var said = error.description
    // The protocol's own words for a bad value are not the person's.
    if case .remote(let remote) = error, remote.code == .invalidParams,
      said.hasPrefix("invalid params: ")
    {
      said.removeFirst("invalid params: ".count)
    }
    Output.error("Error: \(said)")
    if case .remote(let remote) = error, remote.code == .methodNotFound {
      Output.error(Self.olderDaemon)
    }
    return Self.exitCode(for: error, answered: answered)
  }

  /// What acctl says when the daemon does not know a method: it is older
  /// than acctl, as it is after an upgrade until it restarts.
  static let olderDaemon =
    "The running accessoryd is older than acctl (it keeps running through "
    + "an upgrade); restart it: systemctl --user restart accessoryd"

  /// Returns acctl's exit code for a failed call.
  ///
  /// - Parameters:
  ///   - error: Why the call failed.
  ///   - answered: Whether the daemon had answered an earlier call on the
  ///     connection; a broken connection before that means the daemon is
  ///     unreachable.
  static func exitCode(
    for error: ControlClientError, answered: Bool
  ) -> ExitCode {
    switch error {
    case .unreachable, .timedOut: return ExitCode(.unavailable)
    case .unexpectedAnswer: return .failure
    case .connectionLost: return answered ? .failure : ExitCode(.unavailable)
    case .permissionDenied, .servedByAnotherUser:
      return ExitCode(.noPermission)
    case .remote(let error): return exitCode(forCode: error.code)
    }
  }

  /// Returns acctl's exit code for a JSON-RPC error code.
  static func exitCode(forCode code: ControlErrorCode) -> ExitCode {
    switch code {
    case .accessoryNotCapable: ExitCode(.accessoryNotCapable)
    case .accessoryInvalidRequest, .invalidParams: ExitCode(.requestRefused)
    case .accessoryInvalidated: ExitCode(.invalidated)
    case .busy: ExitCode(.unavailable)  // too many connections
    case .permissionDenied: ExitCode(.noPermission)
    case .invalidConfiguration: ExitCode(.configuration)
    default: .failure  // accessoryUnknown, internalError, and the rest
    }
  }
}

extension ExitCode {
  /// Creates the error that ends acctl with one of the statuses in the
  /// table both tools share.
  init(_ code: ProcessExitCode) {
    self.init(rawValue: code.rawValue)
  }
}

extension ExitStatusMeaning {
  /// Creates the meaning of one of the statuses in the table both tools
  /// share.
  init(_ code: ProcessExitCode, _ meaning: String) {
    self.init(code.rawValue, meaning)
  }
}

/// Writes acctl's output.
///
/// Output is written straight to the file descriptors, so each line of
/// `acctl events` reaches a pipe as soon as it is printed.
enum Output {
  /// Writes text and a newline to standard output.
  static func print(_ text: String) {
    write(text + "\n", to: STDOUT_FILENO)
  }

  /// Writes text and a newline to standard error.
  static func error(_ text: String) {
    write(text + "\n", to: STDERR_FILENO)
  }

  /// Writes all of a text to a file descriptor.
  ///
  /// A reader that went away (a closed pipe) ends acctl as SIGPIPE does,
  /// even where SIGPIPE is ignored; any other failure (a full disk) is
  /// said on standard error, and acctl exits 1: output cut short never
  /// passes for done.
  private static func write(_ text: String, to descriptor: Int32) {
    guard !WholeTransfers.write(text, to: descriptor) else { return }
    let failure = Errno.current
    if failure == .brokenPipe {
      signal(SIGPIPE, SIG_DFL)
      raise(SIGPIPE)
      _exit(128 + SIGPIPE)
    }
    if descriptor != STDERR_FILENO {
      WholeTransfers.write(
        "Error: cannot write the output: \(failure)\n", to: STDERR_FILENO)
    }
    _exit(ProcessExitCode.failure.rawValue)
  }
}

/// A command that calls one method of the daemon, without parameters, and
/// prints the answer as text or, with `--json`, as the daemon sent it; its
/// only other option is `--socket`.
protocol DaemonQuery: Command {
  /// The request it sends, which takes no parameters.
  associatedtype Request: DaemonRequest
  /// The request.
  static var request: Request { get }
  /// The answer as text.
  static func render(_ answer: Request.Reply) -> String
  /// Whether to print JSON.
  var json: Bool { get }
  /// The daemon's socket.
  var socket: String { get }
  /// Creates the command.
  init(json: Bool, socket: String)
}

extension DaemonQuery {
  init(arguments: inout ArgumentCursor) throws {
    self.init(json: arguments.flag("json"), socket: Acctl.socketPath(arguments))
  }

  func run() async throws {
    let result = try Daemon(path: socket).call(Self.request)
    try Daemon.show(result, of: Request.method, json: json, Self.render)
  }
}
