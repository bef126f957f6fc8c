// Sending a ServerBatch as one pipelined round of commands.

import SoundServerModel

extension PulseConnection {
  /// Sends card-profile changes, a default sink, a default source, stream
  /// moves and stream mutes as one pipelined round and returns each one's result.
  ///
  /// Every operation is issued under one lock, in the batch's order, before
  /// any reply is awaited, so the batch costs about one round trip. The
  /// server handles the operations in that order; one failing does not stop
  /// the others. Each has the connection's operation timeout.
  ///
  /// What the replies mean differs between the servers:
  /// - PulseAudio replies to a default sink after the streams that follow
  ///   the default have moved. PipeWire replies at once and WirePlumber
  ///   applies the change later.
  /// - PulseAudio ignores a move of a stream to the sink it already plays
  ///   on: a stream pinned there stays pinned, even if that sink is the
  ///   default. PipeWire unpins it.
  /// - PipeWire may show this connection a moved stream on its target
  ///   before the move is made. Confirm changes with the server's events
  ///   and listings, ideally from another connection.
  ///
  /// The corresponding C functions are `pa_context_set_card_profile_by_name`,
  /// `pa_context_set_default_sink`, `pa_context_set_default_source`,
  /// `pa_context_move_sink_input_by_name`
  /// and `pa_context_set_sink_input_mute`.
  ///
  /// - Parameter batch: The operations to send; an empty batch sends
  ///   nothing.
  /// - Returns: One result per operation. When the connection is closed or
  ///   lost, every operation fails with the reason.
  public func apply(_ batch: ServerBatch) async -> ServerBatchResult {
    await driver.apply(batch, timeout: options.operationTimeout)
  }

  /// Sends a batch at once, without waiting.
  ///
  /// The calls are queued on the connection before this returns, and its
  /// thread writes them as soon as it runs. Call it from any thread but
  /// this connection's own (its event
  /// handler or a completion): another connection's event handler is
  /// fine. `completion` gets the results: on the connection's thread, on
  /// the caller's when the connection is not ready, on a timer's at the
  /// timeout.
  ///
  /// Use it where a task hop would cost time the server does not wait
  /// for, such as muting streams the moment their sink goes away.
  ///
  /// - Parameters:
  ///   - batch: The operations, in the order of ``apply(_:)``.
  ///   - completion: Called once with one result per operation; it must not
  ///     block.
  public func send(
    _ batch: ServerBatch,
    completion: @escaping @Sendable (ServerBatchResult) -> Void
  ) {
    driver.start(
      batch, timeout: options.operationTimeout, completion: completion)
  }
}
