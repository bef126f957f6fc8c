// What the engine keeps for the media rules besides their memory.

import AccessorySetupKit
import DaemonInputs
import DaemonLifecycle
import RoutingCore

/// What carrying out the media rules' effects needs, besides their memory
/// (in the engine's ``EngineMemory``).
struct MediaRuntime {
  /// Streams being given back, kept in the ledger until the server
  /// confirms: a daemon killed meanwhile leaves them to the next.
  var releasing: [UInt32: HeadphonesIdentity] = [:]
  /// What a daemon before this one left muted, until the first state of
  /// the server shows what to do with it.
  var leftOver: MutedStreamLedger.LeftOver?
  /// Whether the engine has stopped: nothing more is muted or paused.
  var stopped = false
  /// The server's state the rules last followed, and its number.
  var followed: (server: MediaView.Server?, number: Int) = (nil, 0)
  /// The server's state the router last took in, as the rules see it,
  /// and its number: converted once.
  var converted: (number: Int, server: MediaView.Server?) = (-1, nil)
  /// Streams the person moved, for the rules to take next.
  var personMoves: [UInt32] = []
  /// When the last resume started for each accessory has returned (the
  /// stream ends then): the next waits for it, so that one accessory's
  /// resumes run one at a time, in order.
  var resumesDone: [String: AsyncStream<Void>] = [:]
  /// Streams the link muted as their output vanished whose news came too
  /// late for the loop: given back as the engine stops.
  var mutedAfterTheLoop: [UInt32: HeadphonesIdentity] = [:]
  /// Put-back resumes that wait for the server to show the route back on
  /// the accessory, with when they stop waiting and the answers that wait
  /// for them.
  var resumesAwaitingMoves:
    [BluetoothAddress: (until: Double, answers: [@Sendable () -> Void])] =
      [:]
}
