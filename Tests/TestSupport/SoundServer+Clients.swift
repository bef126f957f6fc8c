import Foundation
import Glibc

extension SoundServer {
  // MARK: - pactl

  /// Runs `pactl` against this server and returns what it printed.
  ///
  /// `pactl` runs in the C locale, so its output can be parsed. Tests may use
  /// it as an observer that is independent of the code under test.
  ///
  /// - Parameter arguments: The `pactl` arguments, such as `["info"]`.
  /// - Returns: The standard output.
  /// - Throws: ``FixtureError`` with the exit status and standard error
  ///   if `pactl` fails, or if it runs longer than ten seconds.
  public func pactl(_ arguments: [String]) async throws -> String {
    try await runClient("pactl", arguments: arguments)
  }

  /// Creates a null sink on the running server.
  ///
  /// Returns once `pactl list sinks` shows the sink.
  ///
  /// - Parameter spec: The sink to create.
  /// - Returns: The index of the module that owns the sink.
  /// - Throws: ``FixtureError`` if the server refuses the module.
  @discardableResult
  public func loadNullSink(_ spec: NullSinkSpec) async throws -> Int {
    let output = try await pactl(
      ["load-module", "module-null-sink", try spec.moduleArguments()])
    let trimmed = output.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let index = Int(trimmed) else {
      throw FixtureError("load-module printed '\(trimmed)', not an index")
    }
    try await poll(
      "sink \(spec.name) to appear",
      observing: { try await sinks().map(\.name) }
    ) { $0.contains(spec.name) }
    return index
  }

  /// Unloads a module, such as a null sink from ``loadNullSink(_:)``.
  ///
  /// Returns once no sink owned by the module is left.
  ///
  /// - Parameter index: The module index.
  /// - Throws: ``FixtureError`` if the server refuses.
  public func unloadModule(_ index: Int) async throws {
    _ = try await pactl(["unload-module", String(index)])
    try await poll(
      "the sinks of module \(index) to go",
      observing: {
        try await sinks().filter { $0.ownerModule == index }.map(\.name)
      }
    ) { $0.isEmpty }
  }

  /// The sinks of the server, as `pactl list sinks` reports them.
  public func sinks() async throws -> [ObservedSink] {
    let output = try await pactl(["list", "sinks"])
    return PactlOutput.entries(in: output, heading: "Sink").map { entry in
      ObservedSink(
        index: entry.index,
        name: entry.fields["Name"] ?? "",
        description: entry.fields["Description"] ?? "",
        ownerModule: entry.fields["Owner Module"].flatMap { Int($0) },
        properties: entry.properties)
    }
  }

  /// The name of the default sink, or `nil` if the server has none.
  ///
  /// Read from `pactl info`; PipeWire's placeholder `@DEFAULT_SINK@` counts
  /// as none.
  public func defaultSinkName() async throws -> String? {
    try await defaultName("Default Sink", placeholder: "@DEFAULT_SINK@")
  }

  /// The name of the default source, or `nil` if the server has none.
  ///
  /// Read from `pactl info`, a new client each time; PipeWire's placeholder
  /// `@DEFAULT_SOURCE@` counts as none.
  public func defaultSourceName() async throws -> String? {
    try await defaultName("Default Source", placeholder: "@DEFAULT_SOURCE@")
  }

  /// A default's name from `pactl info`, or `nil` for none or PipeWire's
  /// placeholder.
  private func defaultName(
    _ field: String, placeholder: String
  ) async throws -> String? {
    let output = try await pactl(["info"])
    guard let name = PactlOutput.infoField(field, in: output),
      !name.isEmpty, name != placeholder
    else { return nil }
    return name
  }

  /// Makes a sink the default and waits until the server reports it.
  ///
  /// PipeWire acknowledges the request before WirePlumber applies it, so
  /// this waits for `pactl info` to show the new default.
  ///
  /// - Parameter name: The sink name.
  /// - Throws: ``FixtureError`` if the default does not change within ten
  ///   seconds.
  public func setDefaultSink(_ name: String) async throws {
    _ = try await pactl(["set-default-sink", name])
    try await poll(
      "default sink \(name)", observing: { try await defaultSinkName() }
    ) { $0 == name }
  }

  /// The playing streams, as `pactl list sink-inputs` reports them.
  public func sinkInputs() async throws -> [ObservedSinkInput] {
    let output = try await pactl(["list", "sink-inputs"])
    let entries = PactlOutput.entries(in: output, heading: "Sink Input")
    guard !entries.isEmpty else { return [] }
    let sinkNames = Dictionary(
      try await sinks().map { ($0.index, $0.name) }
    ) { first, _ in first }
    return entries.map { entry in
      // An unlinked stream reports PA_INVALID_INDEX (4294967295).
      let sinkIndex = entry.fields["Sink"].flatMap { Int($0) }
        .flatMap { $0 == Int(UInt32.max) ? nil : $0 }
      return ObservedSinkInput(
        index: entry.index,
        sinkIndex: sinkIndex,
        sinkName: sinkIndex.flatMap { sinkNames[$0] },
        clientName: entry.properties["application.name"],
        properties: entry.properties)
    }
  }

  // MARK: - Streams

  /// Starts silent playback streams and waits until each one plays on a
  /// sink.
  ///
  /// Each stream is a `pacat` process playing `/dev/zero` with its own
  /// client name. Starts are paced 20 ms apart (PulseAudio listens with a
  /// backlog of 5), and streams whose `pacat` died are started again.
  ///
  /// - Parameters:
  ///   - count: How many streams to start.
  ///   - sink: The sink to play on; `nil` means the default sink.
  /// - Returns: The streams, in start order.
  /// - Throws: ``FixtureError`` if they do not all play within 30
  ///   seconds; the streams started so far are stopped.
  public func startStreams(
    _ count: Int, on sink: String? = nil
  ) async throws -> [PacatStream] {
    precondition(count >= 0, "negative stream count")
    var streams: [PacatStream] = []
    do {
      for _ in 0..<count {
        if !streams.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let (number, group) = try reserveStream()
        let name = "accessoryd-test-stream-\(number)"
        let stream = PacatStream(
          clientName: name, requestedDevice: sink,
          process: try spawnPlayer(name, on: sink, processGroup: group))
        streams.append(stream)
        register(stream)
      }
      // Where each stream plays: its sink, "not playing", or "restarted"
      // for a pacat that died and was started again.
      try await poll(
        "\(count) streams to play on \(sink ?? "the default sink")",
        observing: {
          let inputs = try await sinkInputs()
          var places: [String: String] = [:]
          for stream in streams {
            if !stream.isRunning {
              try await Task.sleep(for: .milliseconds(20))
              stream.replaceProcess(
                with: try spawnPlayer(
                  stream.clientName, on: sink,
                  processGroup: try processGroup()))
              places[stream.clientName] = "restarted"
              continue
            }
            let input = inputs.first { $0.clientName == stream.clientName }
            places[stream.clientName] =
              input?.sinkIndex == nil
              ? "not playing" : (input?.sinkName ?? "an unknown sink")
          }
          return places
        }
      ) { places in
        places.values.allSatisfy { place in
          sink.map { place == $0 }
            ?? !["restarted", "not playing"].contains(place)
        }
      }
    } catch {
      await ChildProcess.terminate(streams.map(\.childProcess))
      throw error
    }
    return streams
  }

  /// Starts a recording stream into `/dev/null` and waits until the
  /// server lists it.
  ///
  /// - Parameters:
  ///   - source: The source to record from; `nil` means the default.
  ///   - properties: Stream properties, such as `media.role`.
  /// - Returns: The stream.
  /// - Throws: ``FixtureError`` if the server does not list it within
  ///   30 seconds; the stream is stopped.
  public func startRecording(
    from source: String? = nil, properties: [String: String] = [:]
  ) async throws -> PacatStream {
    let stream = try spawnRecording(from: source, properties: properties)
    do {
      try await poll(
        "the recording \(stream.clientName) to be listed",
        observing: { try await pactl(["list", "source-outputs"]) }
      ) { $0.contains("application.name = \"\(stream.clientName)\"") }
    } catch {
      stream.stop()
      throw error
    }
    return stream
  }

  /// Records for a moment, as a call application probing the microphone
  /// does, and returns once the server no longer lists the recording.
  ///
  /// The moment the server created the stream is read from `pacat`'s own
  /// log, not from a listing, which on a slow machine comes long after:
  /// the stream lives `duration` from then, and as little longer as
  /// stopping `pacat` takes.
  ///
  /// - Parameters:
  ///   - source: The source to record from; `nil` means the default.
  ///   - properties: Stream properties, such as `media.role`.
  ///   - duration: How long the stream records.
  /// - Throws: ``FixtureError`` if the server does not create the
  ///   stream, or still lists it, within 30 seconds.
  public func recordBriefly(
    from source: String? = nil, properties: [String: String] = [:],
    for duration: Duration
  ) async throws {
    let stream = try spawnRecording(
      from: source, properties: properties, verbose: true)
    let log = "\(layout.streams)/\(stream.clientName).log"
    do {
      try await poll(
        "pacat to say it created \(stream.clientName)",
        observing: {
          (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
      ) { $0.contains("Stream successfully created") }
    } catch {
      stream.stop()
      throw error
    }
    try await Task.sleep(for: duration)
    stream.stop()
    let entry = "application.name = \"\(stream.clientName)\""
    try await poll(
      "the recording \(stream.clientName) to end",
      observing: { try await pactl(["list", "source-outputs"]) }
    ) { !$0.contains(entry) }
  }

  /// Starts a `pacat` recording into `/dev/null`, without waiting.
  private func spawnRecording(
    from source: String?, properties: [String: String], verbose: Bool = false
  ) throws -> PacatStream {
    let (number, group) = try reserveStream()
    let name = "accessoryd-test-recording-\(number)"
    var arguments = [
      "--record", "--raw", "--format=s16le", "--rate=48000", "--channels=2",
      "--latency-msec=50", "--client-name=\(name)", "--stream-name=\(name)",
    ]
    if let source { arguments.append("--device=\(source)") }
    for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
      arguments.append("--property=\(key)=\(value)")
    }
    if verbose { arguments.append("--verbose") }
    arguments.append("/dev/null")
    let stream = PacatStream(
      clientName: name, requestedDevice: source,
      process: try ChildProcess.spawn(
        executable: try path(of: "pacat"), arguments: arguments,
        environment: clientEnvironment,
        output: "\(layout.streams)/\(name).log", processGroup: group))
    register(stream)
    return stream
  }

  /// Starts one `pacat` process.
  private func spawnPlayer(
    _ clientName: String, on sink: String?, processGroup: pid_t
  ) throws -> ChildProcess {
    var arguments = [
      "--playback", "--raw", "--format=s16le", "--rate=48000", "--channels=2",
      "--latency-msec=50", "--client-name=\(clientName)",
      "--stream-name=\(clientName)",
    ]
    if let sink {
      arguments.append("--device=\(sink)")
    }
    arguments.append("/dev/zero")
    return try ChildProcess.spawn(
      executable: try path(of: "pacat"), arguments: arguments,
      environment: clientEnvironment,
      output: "\(layout.streams)/\(clientName).log", processGroup: processGroup)
  }

  // MARK: - Running clients

  /// Runs a client program to completion and returns its standard output.
  private func runClient(
    _ program: String, arguments: [String]
  ) async throws -> String {
    let group = try processGroup()
    let number = reserveCommandNumber()
    let output = "\(layout.commands)/\(program)-\(number).out"
    let errorOutput = "\(layout.commands)/\(program)-\(number).err"
    defer {
      unlink(output)
      unlink(errorOutput)
    }
    let process = try ChildProcess.spawn(
      executable: try path(of: program), arguments: arguments,
      environment: clientEnvironment, output: output, errorOutput: errorOutput,
      processGroup: group)
    return try await process.checkedOutput(
      of: ([program] + arguments).joined(separator: " "),
      exited: await process.waitForExit(until: .now + Self.commandTimeout),
      output: output, errorOutput: errorOutput)
  }

  /// Polls the server for up to 30 seconds, without holding a thread,
  /// until what it shows satisfies a condition.
  ///
  /// - Throws: ``FixtureError`` naming what was awaited and what was
  ///   seen last, with the end of the server logs.
  private func poll<Observation: Sendable>(
    _ what: String, observing observe: () async throws -> Observation,
    until condition: (Observation) -> Bool
  ) async throws {
    do {
      try await waitFor(
        what, within: Self.pollTimeout, observing: observe,
        until: condition)
    } catch let error as FixtureError {
      throw FixtureError(error.message, logTail: logTail())
    }
  }
}

extension SoundServer {
  /// On PipeWire, the `default` metadata as `pw-metadata` prints it: the
  /// defaults WirePlumber chose and the ones configured, beside what
  /// pipewire-pulse reports; empty on PulseAudio or when it cannot be read.
  public func defaultsMetadata() async -> String {
    guard kind == .pipeWire else { return "" }
    guard
      let run = try? await runProgram(
        "/usr/bin/pw-metadata", ["-n", "default"],
        environment: clientEnvironment, within: .seconds(10))
    else { return "\n(pw-metadata could not run)" }
    return "\n--- pw-metadata -n default\n\(run.stdout)\(run.stderr)"
  }
}
