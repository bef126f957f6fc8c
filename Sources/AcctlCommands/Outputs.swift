// acctl output: lists the outputs and inputs with the default and why,
// takes one as the person's own choice, and forgets that choice.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Groups the output subcommands; `list` runs when none is named.
  struct Outputs: Command {
    static let configuration = CommandConfiguration(
      commandName: "output",
      abstract: "List the outputs and inputs, choose one, or forget the "
        + "choice.",
      discussion: """
        Choosing a device with acctl is the same as choosing it in the \
        desktop's sound settings: accessoryd takes it as your own choice \
        and keeps it as the policy's manualChoice settings say (the default \
        policy sets it aside when headphones you put on or connect \
        afterwards want the output). acctl output forget leaves the \
        decision to accessoryd again.
        """,
      subcommands: [List.self, Choose.self, Forget.self],
      defaultSubcommand: List.self)

    init(arguments: inout ArgumentCursor) throws {}
  }
}

extension Acctl.Outputs {
  /// Lists the outputs and inputs, and the streams.
  struct List: DaemonQuery {
    static let configuration = CommandConfiguration(
      abstract: "List the outputs and inputs, the default and why, and the "
        + "streams.")

    static let signature = Acctl.JSONAndSocket.signature(
      printing: "the outputs, inputs and streams")

    static let request = OutputListRequest()

    /// Whether to print JSON.
    let json: Bool
    /// The daemon's socket.
    let socket: String

    static func render(_ answer: AudioDevices) -> String {
      Rendering.audioDevices(answer)
    }
  }

  /// Takes an output or an input as the person's own choice.
  struct Choose: Command {
    static let configuration = CommandConfiguration(
      abstract: "Choose an output or an input, as in the desktop's settings.")

    static let signature: [ArgumentDefinition] = [
      .argument(
        "device",
        abstract: "The output's or input's name, or its description, as "
          + "acctl output lists them."
      ).completing(.custom(Acctl.CompletionSource.devicesOfTheServer)),
      Acctl.Shared.json("the device chosen and the route"),
      Acctl.Shared.socket,
    ]

    /// The device asked for.
    var device: String
    /// Whether to print JSON, and the daemon's socket.
    var options: Acctl.JSONAndSocket

    init(arguments: inout ArgumentCursor) throws {
      device = try arguments.required("device")
      options = Acctl.JSONAndSocket(arguments)
    }

    func run() async throws {
      let result = try Daemon(path: options.socket).call(
        OutputChooseRequest(device: device))
      try Daemon.show(
        result, of: OutputChooseRequest.method, json: options.json,
        Rendering.outputChoice)
    }
  }

  /// Forgets the person's choices of output and input.
  struct Forget: Command {
    static let configuration = CommandConfiguration(
      abstract: "Forget your choice of output and input: accessoryd decides "
        + "alone again.")

    static let signature = Acctl.JSONAndSocket.signature(
      printing: "the choices forgotten and the route")

    /// Whether to print JSON, and the daemon's socket.
    var options: Acctl.JSONAndSocket

    init(arguments: inout ArgumentCursor) throws {
      options = Acctl.JSONAndSocket(arguments)
    }

    func run() async throws {
      let result = try Daemon(path: options.socket).call(OutputForgetRequest())
      try Daemon.show(
        result, of: OutputForgetRequest.method, json: options.json,
        Rendering.outputChoice)
    }
  }
}
