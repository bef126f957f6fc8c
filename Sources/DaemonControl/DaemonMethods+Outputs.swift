// The control methods for the daemon's status and overview, and for the
// outputs and inputs: list them, choose one, forget the choice.

import AccessoryControl
import AccessoryEngine
import AudioAccessoryKit
import FoundationEssentials
import RoutingCore

extension DaemonMethods {
  /// `daemon.status`: the version, the sound server, the files, BlueZ in
  /// brief and the host's addresses.
  func daemonStatus() async -> DaemonStatus {
    var status = status()
    status.policyPath = policies.loaded.path ?? "built-in default"
    status.policySearchPath = policies.searchPath
    status.policyRefused = policies.lastRefusal
    status.hostAddresses = router.board.hostAddresses
    let server = router.board.serverInfo
    status.soundServer = DaemonStatus.SoundServer(
      state: server == nil ? .disconnected : .connected,
      name: server?.serverName, version: server?.serverVersion)
    status.media = mediaStatus
    status.headphones = headphoneLinks?.reading
    if let bluez {
      status.bluetooth = await Self.bluetoothInBrief(bluez)
    }
    return status
  }

  /// `daemon.overview`: the status with the outputs, inputs, streams,
  /// accessories (headphones nobody registered included) and players.
  ///
  /// The desktop parts read it in the process, without the wire's JSON.
  public func overview() async -> DaemonOverview {
    DaemonOverview(
      status: await daemonStatus(), devices: router.board.audioDevices(),
      accessories: await list(.init(includesHeadphones: true)).accessories,
      players: await mediaPlayers())
  }

  /// `output.choose`: takes the device as the person's own choice and
  /// routes, as choosing it in the desktop's settings would.
  func chooseDevice(
    _ request: OutputChooseRequest
  ) async throws -> OutputChoiceReply {
    let device = request.device
    let chosen = try await router.change(because: .deviceChosen) {
      router throws(AccessoryControlFailure) in
      do throws(DeviceChoiceError) {
        return (try router.choose(device), nil)
      } catch {
        throw .invalidRequest(reason: error.description)
      }
    }.made
    return OutputChoiceReply(
      chosen: chosen.name, isInput: chosen.isInput, forgotten: [],
      route: router.board.report(explaining: false))
  }

  /// `output.forget`: forgets the person's choices and routes.
  func forgetChoices() async -> OutputChoiceReply {
    let forgotten =
      (try? await router.change(because: .choicesForgotten) { router in
        (router.forgetChoices(), nil)
      }.made) ?? []
    return OutputChoiceReply(
      chosen: nil, isInput: false, forgotten: forgotten,
      route: router.board.report(explaining: false))
  }
}
