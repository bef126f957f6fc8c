// acctl pair's picker, AccessorySetupKit's picker in a terminal: it follows
// the devices that match while the person chooses one, names it and
// confirms, then sets it up, for acctl or for the app that asked.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit
import ConcurrencyHelpers
import FoundationEssentials
import Glibc
import SystemCalls

/// Something the picker reacts to, from the terminal or the daemon.
enum PickerInput: Sendable {
  /// Bytes read from standard input.
  case bytes([UInt8])
  /// Standard input ended or failed.
  case endOfInput
  /// A `discovery` event.
  case discovery(JSONValue)
  /// The app's picker was dismissed by something else than this picker,
  /// with the `error` its `pickerDidDismiss` event gave, if any.
  case dismissed(error: String?)
  /// The app changed the accessories its picker offers.
  case offeredChanged
  /// A connection the picker follows broke.
  case followingFailed(ControlClientError)
  /// The window changed size.
  case resized
}

/// The interactive picker of `acctl pair`.
///
/// It opens one connection for `discovery.subscribe` (and, for an app's
/// request, one for `events.subscribe`, to hear the app's picker close or
/// change what it offers), then lists the devices on a third, and reads
/// the terminal and the events on threads of their own, which feed one
/// stream that the picker consumes.
struct Picker {
  /// The request the picker answers.
  let request: PickerRequest
  /// The daemon's socket.
  let socket: String
  /// The name `--name` gave, offered instead of the device's.
  let presetName: String?

  /// Runs the picker until a device is set up or the person cancels.
  ///
  /// - Returns: The accessory the daemon set up.
  /// - Throws: ``ExitCode/failure`` after printing `Cancelled.` when the
  ///   person cancels; the daemon's ``ExitCode`` after printing its error
  ///   when a connection fails.
  func run() async throws -> JSONValue {
    // Follow first, then list, so no change falls between the two.
    let discovery = try Self.connect(
      socket,
      subscribingTo: DiscoverySubscribeRequest(
        descriptors: request.descriptors))
    let appEvents =
      request.pickerID == nil
      ? nil
      : try Self.connect(socket, subscribingTo: EventsSubscribeRequest())
    let daemon = try Self.connect(socket)
    var model = PickerModel(request: request, presetName: presetName)
    do {
      // The app's picker may have changed, or closed, since it was read.
      if request.pickerID != nil {
        guard let pending = try Self.pending(daemon, request) else {
          Output.error(Self.dismissal(error: nil))
          throw ExitCode.failure
        }
        model.replaceOffered(PickerRequest.offered(in: pending))
      }
      model.replaceDevices(try Self.devices(daemon, request))
    } catch let error as ControlClientError {
      Output.error("Error: \(error.description)")
      throw Daemon.exitCode(for: error, answered: true)
    }

    let (inputs, continuation) = AsyncStream.makeStream(of: PickerInput.self)
    Self.follow(discovery, into: continuation) { event in
      .discovery(event)
    }
    if let appEvents, let pickerID = request.pickerID {
      Self.follow(appEvents, into: continuation) { event in
        guard Rendering.text(event["pickerID"]) == pickerID else { return nil }
        switch Rendering.text(event["eventType"]) {
        case "pickerDidDismiss":
          return .dismissed(error: Rendering.text(event["error"]))
        case "pickerUpdated":
          return .offeredChanged
        default:
          return nil
        }
      }
    }
    let terminal = PickerTerminal()
    terminal.begin { continuation.yield(.resized) }
    defer { terminal.end() }
    // Keys are read only once the terminal sends each one at once.
    Self.readInput(into: continuation)
    func draw() {
      let size = terminal.size
      terminal.draw(model.frame(columns: size.columns, rows: size.rows))
    }
    func fail(_ message: String, _ code: ExitCode) -> ExitCode {
      terminal.end()
      Output.error(message)
      return code
    }
    func cancel() -> ExitCode {
      if let cancellation = request.cancellation {
        // The app hears pickerDidDismiss; a picker already gone is fine.
        _ = try? daemon.call(cancellation)
      }
      return fail("Cancelled.", .failure)
    }

    var decoder = PickerKeyDecoder()
    draw()
    for await input in inputs {
      switch input {
      case .bytes(let bytes):
        for key in decoder.keys(in: bytes) {
          switch model.handle(key) {
          case .none:
            break
          case .cancel:
            throw cancel()
          case .setUp(let address, let name):
            draw()
            do {
              return try daemon.callForJSON(
                request.answer(address: address, name: name))
            } catch .remote(let error) where error.code != .noPicker {
              // Most often the device went away; its removal may not have
              // come as an event, so read the list again.
              model.setUpFailed(error.message)
              if let list = try? Self.devices(daemon, request) {
                model.replaceDevices(list)
              }
              if request.filtersDiscoveryResults,
                let pending = try? Self.pending(daemon, request)
              {
                model.replaceOffered(PickerRequest.offered(in: pending))
              }
            } catch {
              throw fail(
                "Error: \(error.description)",
                Daemon.exitCode(for: error, answered: true))
            }
          }
        }
      case .endOfInput:
        throw cancel()
      case .discovery(let event):
        model.apply(event)
      case .dismissed(let error):
        throw fail(Self.dismissal(error: error), .failure)
      case .offeredChanged:
        do {
          // Nil when the picker has closed; its dismissal follows.
          if let pending = try Self.pending(daemon, request) {
            model.replaceOffered(PickerRequest.offered(in: pending))
          }
        } catch {
          throw fail(
            "Error: \(error.description)",
            Daemon.exitCode(for: error, answered: true))
        }
      case .followingFailed(let error):
        throw fail(
          "Error: \(error.description)",
          Daemon.exitCode(for: error, answered: true))
      case .resized:
        break
      }
      draw()
    }
    throw cancel()
  }

  // MARK: - The daemon

  /// Returns the picker an app waits on, or nil if none does or the
  /// daemon has no pickers.
  ///
  /// - Throws: The daemon's ``ExitCode`` after printing its error.
  static func pendingRequest(socket: String) throws -> PickerRequest? {
    let client = try connect(socket)
    let result: PickerPendingReply
    do {
      result = try client.call(PickerPendingRequest())
    } catch .remote(let error) where error.code == .methodNotFound {
      return nil  // A daemon without pickers.
    } catch {
      Output.error("Error: \(error.description)")
      throw Daemon.exitCode(for: error, answered: false)
    }
    return result.picker.flatMap(PickerRequest.init(pending:))
  }

  /// The app's picker as `picker.pending` shows it now, or nil if it is no
  /// longer open.
  private static func pending(
    _ client: ControlClient, _ request: PickerRequest
  ) throws(ControlClientError) -> PendingPicker? {
    let picker = try client.call(PickerPendingRequest()).picker
    guard let picker, picker.pickerID == request.pickerID else { return nil }
    return picker
  }

  /// The message for an app's picker closed by something else than this
  /// picker.
  ///
  /// - Parameter error: The `error` of its `pickerDidDismiss` event, if
  ///   any: why it closed.
  static func dismissal(error: String?) -> String {
    switch error {
    case nil:
      "Error: the app's picker was closed elsewhere: answered, cancelled or "
        + "invalidated"
    case "discoveryTimeout":
      "Error: the app's picker timed out: the app offered no accessory "
        + "(discoveryTimeout)"
    case "userCancelled":
      "Error: the app's picker was cancelled elsewhere (userCancelled)"
    case "invalidated":
      "Error: the app's picker was invalidated: its session ended "
        + "(invalidated)"
    case let error?:
      "Error: the app's picker was closed (\(error))"
    }
  }

  /// Opens a connection; with a request, sends it to subscribe.
  ///
  /// - Throws: The daemon's ``ExitCode`` after printing its error.
  private static func connect(
    _ socket: String, subscribingTo subscription: (any DaemonRequest)? = nil
  ) throws -> ControlClient {
    do {
      let client = try ControlClient(path: socket)
      if let subscription { _ = try client.callForJSON(subscription) }
      return client
    } catch {
      Output.error("Error: \(error.description)")
      throw Daemon.exitCode(for: error, answered: false)
    }
  }

  /// The devices the daemon sees now that match the request.
  private static func devices(
    _ client: ControlClient, _ request: PickerRequest
  ) throws(ControlClientError) -> [JSONValue] {
    let result = try client.callForJSON(
      DiscoveryListRequest(descriptors: request.descriptors))
    guard case .array(let devices)? = result["devices"] else { return [] }
    return devices
  }

  // MARK: - Threads

  /// Reads standard input on a thread of its own until it ends.
  private static func readInput(
    into continuation: AsyncStream<PickerInput>.Continuation
  ) {
    startThread(named: "acctl-input") {
      var buffer = [UInt8](repeating: 0, count: 256)
      while true {
        let count = Errno.retryingInterrupts { read(0, &buffer, buffer.count) }
        if count > 0 {
          continuation.yield(.bytes(Array(buffer[0..<count])))
        } else {
          continuation.yield(.endOfInput)
          return
        }
      }
    }
  }

  /// Reads a connection's events on a thread of its own until it breaks.
  ///
  /// - Parameter input: Turns an event into an input, or nil to skip it.
  private static func follow(
    _ client: ControlClient,
    into continuation: AsyncStream<PickerInput>.Continuation,
    _ input: @escaping @Sendable (JSONValue) -> PickerInput?
  ) {
    startThread(named: "acctl-events") {
      while true {
        do throws(ControlClientError) {
          let notification = try client.nextNotification()
          if notification.method == "event", let event = notification.params,
            let value = input(event)
          {
            continuation.yield(value)
          }
        } catch {
          continuation.yield(.followingFailed(error))
          return
        }
      }
    }
  }
}
