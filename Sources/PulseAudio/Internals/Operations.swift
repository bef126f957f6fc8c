// The operations of the typed client, one libpulse call each.

internal import CPulse
import SoundServerModel

extension ContextDriver {
  func serverInfo(timeout: Duration) async throws(PulseError) -> ServerInfo {
    let items = try await perform(timeout: timeout) { context, userdata in
      pa_context_get_server_info(
        context,
        { _, info, userdata in
          let operation = PendingOperation.from(userdata)
          guard let info else { return operation.fail() }
          operation.finish(.success([.server(ServerInfo(info))]))
        }, userdata)
    }
    guard case .server(let info) = items.first else { throw .protocolError }
    return info
  }

  func sinks(timeout: Duration) async throws(PulseError) -> [Sink] {
    try await perform(timeout: timeout) { context, userdata in
      pa_context_get_sink_info_list(context, sinkListCallback, userdata)
    }.compactMap { item in
      if case .sink(let sink) = item { sink } else { nil }
    }
  }

  func sink(
    named name: String, timeout: Duration
  ) async throws(PulseError)
    -> Sink
  {
    let items = try await perform(timeout: timeout) { context, userdata in
      pa_context_get_sink_info_by_name(
        context, name, sinkListCallback, userdata)
    }
    guard case .sink(let sink) = items.first else { throw .noSuchEntity }
    return sink
  }

  func sinkInputs(timeout: Duration) async throws(PulseError) -> [SinkInput] {
    let results = await performMany(
      timeout: timeout,
      [
        { context, userdata in
          pa_context_get_sink_input_info_list(
            context,
            { _, info, endOfList, userdata in
              listCallback(userdata, endOfList: endOfList) {
                .sinkInput(SinkInput(info!))
              }
            }, userdata)
        },
        { context, userdata in
          pa_context_get_client_info_list(
            context,
            { _, info, endOfList, userdata in
              listCallback(userdata, endOfList: endOfList) {
                .client(
                  index: info!.pointee.index,
                  name: cString(info!.pointee.name) ?? "")
              }
            }, userdata)
        },
      ])
    var clientNames: [UInt32: String] = [:]
    for item in try results[1].get() {
      if case .client(let index, let name) = item { clientNames[index] = name }
    }
    return try results[0].get().compactMap { item in
      guard case .sinkInput(var input) = item else { return nil }
      input.clientName = input.clientIndex.flatMap { clientNames[$0] }
      return input
    }
  }

  func sources(timeout: Duration) async throws(PulseError) -> [Source] {
    try await perform(timeout: timeout) { context, userdata in
      pa_context_get_source_info_list(
        context,
        { _, info, endOfList, userdata in
          listCallback(userdata, endOfList: endOfList) {
            .source(Source(info!))
          }
        }, userdata)
    }.compactMap { item in
      if case .source(let source) = item { source } else { nil }
    }
  }

  func sourceOutputs(
    timeout: Duration
  ) async throws(PulseError) -> [SourceOutput] {
    try await perform(timeout: timeout) { context, userdata in
      pa_context_get_source_output_info_list(
        context,
        { _, info, endOfList, userdata in
          listCallback(userdata, endOfList: endOfList) {
            .sourceOutput(SourceOutput(info!))
          }
        }, userdata)
    }.compactMap { item in
      if case .sourceOutput(let output) = item { output } else { nil }
    }
  }

  func cards(timeout: Duration) async throws(PulseError) -> [Card] {
    try await perform(timeout: timeout) { context, userdata in
      pa_context_get_card_info_list(
        context,
        { _, info, endOfList, userdata in
          listCallback(userdata, endOfList: endOfList) { .card(Card(info!)) }
        }, userdata)
    }.compactMap { item in
      if case .card(let card) = item { card } else { nil }
    }
  }

  func setDefaultSink(
    _ name: String, timeout: Duration
  ) async throws(PulseError) {
    _ = try await perform(timeout: timeout) { context, userdata in
      pa_context_set_default_sink(context, name, successCallback, userdata)
    }
  }

  func setDefaultSource(
    _ name: String, timeout: Duration
  ) async throws(PulseError) {
    _ = try await perform(timeout: timeout) { context, userdata in
      pa_context_set_default_source(context, name, successCallback, userdata)
    }
  }

  func moveSinkInputs(
    _ indexes: [UInt32], toSinkNamed name: String, timeout: Duration
  ) async -> [Result<Void, PulseError>] {
    let starts = indexes.map { index in
      { (context: OpaquePointer, userdata: UnsafeMutableRawPointer) in
        pa_context_move_sink_input_by_name(
          context, index, name, successCallback, userdata)
      }
    }
    return await performMany(timeout: timeout, starts).map { result in
      result.map { _ in () }
    }
  }

  func setCardProfile(
    cardNamed card: String, profile: String, timeout: Duration
  ) async throws(PulseError) {
    _ = try await perform(timeout: timeout) { context, userdata in
      pa_context_set_card_profile_by_name(
        context, card, profile, successCallback, userdata)
    }
  }

  func setSinkMute(
    sinkNamed name: String, muted: Bool, timeout: Duration
  ) async throws(PulseError) {
    _ = try await perform(timeout: timeout) { context, userdata in
      pa_context_set_sink_mute_by_name(
        context, name, muted ? 1 : 0, successCallback, userdata)
    }
  }

  func setSinkInputMute(
    _ index: UInt32, muted: Bool, timeout: Duration
  ) async throws(PulseError) {
    _ = try await perform(timeout: timeout) { context, userdata in
      pa_context_set_sink_input_mute(
        context, index, muted ? 1 : 0, successCallback, userdata)
    }
  }

  func suspendSink(
    sinkNamed name: String, suspended: Bool, timeout: Duration
  ) async throws(PulseError) {
    _ = try await perform(timeout: timeout) { context, userdata in
      pa_context_suspend_sink_by_name(
        context, name, suspended ? 1 : 0, successCallback, userdata)
    }
  }

  func loadModule(
    _ name: String, arguments: String, timeout: Duration
  ) async throws(PulseError) -> UInt32 {
    let items = try await perform(timeout: timeout) { context, userdata in
      pa_context_load_module(context, name, arguments, indexCallback, userdata)
    }
    guard case .index(let index) = items.first else { throw .protocolError }
    return index
  }

  func unloadModule(_ index: UInt32, timeout: Duration) async throws(PulseError)
  {
    _ = try await perform(timeout: timeout) { context, userdata in
      pa_context_unload_module(context, index, successCallback, userdata)
    }
  }
}

private func sinkListCallback(
  _ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_info>?,
  _ endOfList: Int32, _ userdata: UnsafeMutableRawPointer?
) {
  listCallback(userdata, endOfList: endOfList) { .sink(Sink(info!)) }
}
