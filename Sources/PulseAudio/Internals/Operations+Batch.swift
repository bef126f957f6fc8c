// The batch of commands that one routing decision becomes: card profiles,
// the default sink and source, stream moves and stream mutes, all started under one
// lock.

internal import CPulse
import ConcurrencyHelpers
import SoundServerModel

extension ContextDriver {
  /// Starts a batch's operations in order under one lock, pipelined on the
  /// connection, and returns each one's result.
  func apply(
    _ batch: ServerBatch, timeout: Duration
  ) async -> ServerBatchResult {
    await withHandover { handover in
      start(batch, timeout: timeout) { handover.resume(returning: $0) }
    }
  }

  /// Starts a batch's operations at once, from any thread, and calls
  /// `completion` with each one's result on the mainloop thread.
  func start(
    _ batch: ServerBatch, timeout: Duration,
    completion: @escaping @Sendable (ServerBatchResult) -> Void
  ) {
    typealias Start = (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
    var starts: [Start] = []
    for change in batch.cardProfiles {
      starts.append { context, userdata in
        pa_context_set_card_profile_by_name(
          context, change.cardName, change.profileName, successCallback,
          userdata)
      }
    }
    if let name = batch.defaultSink {
      starts.append { context, userdata in
        pa_context_set_default_sink(context, name, successCallback, userdata)
      }
    }
    if let name = batch.defaultSource {
      starts.append { context, userdata in
        pa_context_set_default_source(
          context, name, successCallback, userdata)
      }
    }
    for move in batch.moves {
      starts.append { context, userdata in
        pa_context_move_sink_input_by_name(
          context, move.sinkInput, move.sink, successCallback, userdata)
      }
    }
    for mute in batch.mutes {
      starts.append { context, userdata in
        pa_context_set_sink_input_mute(
          context, mute.sinkInput, mute.muted ? 1 : 0, successCallback,
          userdata)
      }
    }
    let mutesStart = starts.count - batch.mutes.count
    let movesStart = mutesStart - batch.moves.count
    let defaultsStart = batch.cardProfiles.count
    let sourceAt = defaultsStart + (batch.defaultSink == nil ? 0 : 1)
    startMany(timeout: timeout, starts) { payloads in
      let results = payloads.map { result in
        result.map { _ in () }.mapError(SoundServerError.init)
      }
      completion(
        ServerBatchResult(
          cardProfiles: Array(results[..<batch.cardProfiles.count]),
          defaultSink: batch.defaultSink == nil ? nil : results[defaultsStart],
          defaultSource: batch.defaultSource == nil ? nil : results[sourceAt],
          moves: Array(results[movesStart..<mutesStart]),
          mutes: Array(results[mutesStart...])))
    }
  }
}
