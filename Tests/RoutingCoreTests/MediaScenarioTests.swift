// Numbered media scenarios kept as data, like the routing ones: each file
// in MediaScenarios/ gives a policy, the memory, the world, one event,
// and the effects and memory the media rules must return.

import AccessoryControl
import Foundation
import RoutingCore
import Testing

/// The folder of media scenario files, next to this file.
let mediaScenariosDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().appendingPathComponent("MediaScenarios")

/// The media scenario files' names, sorted.
let mediaScenarioFileNames: [String] =
  ((try? FileManager.default.contentsOfDirectory(
    atPath: mediaScenariosDirectory.path)) ?? [])
  .filter { $0.hasSuffix(".json5") }.sorted()

@Suite("Media scenarios")
struct MediaScenarioTests {
  @Test(
    "Each media scenario steps as expected", arguments: mediaScenarioFileNames)
  func scenario(_ fileName: String) throws {
    let scenario = try MediaScenario.load(fileName)
    let (memory, effects) = MediaRules.step(
      scenario.memory, scenario.view, scenario.event, scenario.policy,
      now: scenario.now)
    let context = Comment(
      rawValue: "scenario '\(scenario.title)'\neffects: \(effects)\n"
        + "memory: \(memory)")
    #expect(effects.count == scenario.effects.count, context)
    for (actual, expected) in zip(effects, scenario.effects) {
      #expect(expected.matches(actual), "expected \(expected); \(context)")
    }
    #expect(memory == scenario.memoryAfter, context)
  }

  @Test("The media scenarios are numbered once each, from 1 without gaps")
  func numbering() throws {
    let numbers = mediaScenarioFileNames.compactMap {
      Int($0.prefix { $0.isNumber })
    }
    try #require(numbers.count >= 20, "too few media scenarios")
    #expect(numbers == Array(1...numbers.count))
  }

  @Test(
    "A step on a scenario's result with the same event changes nothing more")
  func noEchoOfAServerState() throws {
    // A server state taken twice is one state: the second step has
    // nothing left to do.
    for fileName in mediaScenarioFileNames {
      let scenario = try MediaScenario.load(fileName)
      guard case .serverChanged = scenario.event else { continue }
      let (memory, _) = MediaRules.step(
        scenario.memory, scenario.view, scenario.event, scenario.policy,
        now: scenario.now)
      let (again, effects) = MediaRules.step(
        memory, scenario.view, .serverChanged(previous: scenario.view.server),
        scenario.policy, now: scenario.now)
      #expect(again == memory, "\(fileName)")
      #expect(
        effects.allSatisfy {
          if case .note = $0 { true } else { false }
        }, "\(fileName): \(effects)")
    }
  }
}

/// One media scenario file, read.
struct MediaScenario {
  var title: String
  var policy: Policy
  var now: Double
  var memory: MediaMemory
  var view: MediaView
  var event: MediaInput
  var effects: [ExpectedEffect]
  var memoryAfter: MediaMemory

  static func load(_ fileName: String) throws -> MediaScenario {
    let data = try Data(
      contentsOf: mediaScenariosDirectory.appendingPathComponent(fileName))
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    let root = Node(try decoder.decode(JSONValue.self, from: data), fileName)
    try root.allow([
      "title", "policy", "policyChanges", "now", "memory", "view", "event",
      "expect",
    ])
    let source: Scenario.PolicySource =
      switch try root.require("policy").value {
      case .string(let name): .file(name)
      case let other: .inline(other)
      }
    let expect = try root.require("expect")
    try expect.allow(["effects", "memory"])
    return MediaScenario(
      title: try root.require("title").string(),
      policy: try Scenario.policy(
        source, changes: root["policyChanges"]?.value),
      now: try root.require("now").number(),
      memory: try root["memory"].map(memory) ?? MediaMemory(),
      view: try view(root.require("view")),
      event: try event(root.require("event")),
      effects: try expect.require("effects").list().map(ExpectedEffect.init),
      memoryAfter: try memory(expect.require("memory")))
  }

  static func memory(_ node: Node) throws -> MediaMemory {
    try node.allow([
      "pauses", "absences", "pausing", "lastAbsence",
    ])
    var memory = MediaMemory()
    for (address, entry) in try node["pauses"]?.object() ?? [:] {
      try entry.allow([
        "players", "at", "muted", "cause", "disconnected", "seenPaused",
        "resumesAt", "awaySince",
      ])
      var pause = MediaMemory.Pause(
        players: try entry["players"]?.strings() ?? [:],
        at: try entry.require("at").number(),
        muted: try entry["muted"]?.streams() ?? [],
        cause: try entry["cause"].map(cause) ?? .takenOff,
        disconnected: try entry["disconnected"]?.bool() ?? false)
      pause.seenPaused = Set(
        try entry["seenPaused"]?.list().map { try $0.string() } ?? [])
      pause.resumesAt = try entry["resumesAt"]?.number()
      pause.awaySince = try entry["awaySince"]?.number()
      memory.pauses[address] = pause
    }
    for (address, entry) in try node["absences"]?.object() ?? [:] {
      try entry.allow([
        "id", "since", "endsAt", "graceEndsAt", "streams", "gone", "played",
        "seenAway",
      ])
      var absence = MediaMemory.Absence(
        id: Int(try entry.require("id").number()),
        since: try entry.require("since").number(),
        endsAt: try entry.require("endsAt").number(),
        graceEndsAt: try entry["graceEndsAt"]?.number())
      absence.streams = try entry["streams"]?.streams() ?? []
      absence.gone = try entry["gone"]?.streams() ?? []
      absence.played = try entry["played"]?.streams() ?? []
      absence.seenAway = try entry["seenAway"]?.streams() ?? []
      memory.absences[address] = absence
    }
    for (address, entry) in try node["pausing"]?.object() ?? [:] {
      try entry.allow(["cause", "streams", "reason"])
      memory.pausing[address] = .init(
        cause: try cause(entry.require("cause")),
        streams: try entry.require("streams").streams(),
        reason: try entry.require("reason").string())
    }
    memory.lastAbsence = Int(try node["lastAbsence"]?.number() ?? 0)
    return memory
  }

  static func cause(_ node: Node) throws -> MediaPauseCause {
    let text = try node.string()
    guard let cause = MediaPauseCause(rawValue: text) else {
      throw node.error("unknown cause '\(text)'")
    }
    return cause
  }

  static func server(_ node: Node) throws -> MediaView.Server {
    try node.allow(["outputs", "streams", "defaultOutput"])
    return MediaView.Server(
      outputs: try node.require("outputs").list().map {
        try $0.allow(["index", "accessory", "headphones"])
        return .init(
          index: try $0.require("index").stream(),
          accessory: try $0["accessory"]?.string(),
          isHeadphones: try $0["headphones"]?.bool() ?? false)
      },
      streams: try node["streams"]?.list().map {
        try $0.allow(["index", "output", "muted", "corked"])
        return .init(
          index: try $0.require("index").stream(),
          output: try $0.require("output").stream(),
          isMuted: try $0["muted"]?.bool() ?? false,
          isCorked: try $0["corked"]?.bool() ?? false)
      } ?? [],
      defaultOutput: try node["defaultOutput"]?.stream())
  }

  static func view(_ node: Node) throws -> MediaView {
    try node.allow([
      "server", "players", "registered", "offHead", "bluetoothConnected",
    ])
    let server: MediaView.Server? =
      if let entry = node["server"], entry.value != .null {
        try Self.server(entry)
      } else { nil }
    var players: [String: MediaView.PlayerStatus] = [:]
    for (busName, status) in try node["players"]?.strings() ?? [:] {
      guard let value = MediaView.PlayerStatus(rawValue: status) else {
        throw node.error("unknown player status '\(status)'")
      }
      players[busName] = value
    }
    return MediaView(
      server: server, players: players,
      registered: Set(
        try node["registered"]?.list().map { try $0.string() } ?? []),
      reportedOffHead: Set(
        try node["offHead"]?.list().map { try $0.string() } ?? []),
      bluetoothConnected: try node["bluetoothConnected"]?.object()
        .mapValues { try $0.bool() } ?? [:])
  }

  static func event(_ node: Node) throws -> MediaInput {
    let fields = try node.object()
    guard fields.count == 1, let (kind, body) = fields.first else {
      throw node.error("an event is an object with one key")
    }
    switch kind {
    case "takenOff":
      return .takenOff(
        accessory: try body.require("accessory").string(),
        output: try body.require("output").stream())
    case "playersPaused":
      return .playersPaused(
        accessory: try body.require("accessory").string(),
        players: try body.require("players").strings(),
        streams: try body.require("streams").streams())
    case "putBack":
      return .putBack(
        accessory: try body.require("accessory").string(),
        window: try body.require("window").number())
    case "outputWentAway":
      return .outputWentAway(
        accessory: try body.require("accessory").string(),
        output: try body.require("output").stream(),
        muted: try body.require("muted").streams(),
        sinkStays: try body["sinkStays"]?.bool() ?? false)
    case "jackBack":
      return .jackBack(
        accessory: try body.require("accessory").string(),
        output: try body.require("output").stream())
    case "serverChanged":
      let previous = body["previous"]
      return .serverChanged(
        previous: try previous.flatMap {
          $0.value == .null ? nil : try server($0)
        })
    case "graceEnded":
      return .graceEnded(
        accessory: try body.require("accessory").string(),
        absence: Int(try body.require("absence").number()))
    case "playerChanged":
      let status = body["status"]
      return .playerChanged(
        busName: try body.require("busName").string(),
        status: try status.flatMap {
          $0.value == .null
            ? nil : MediaView.PlayerStatus(rawValue: try $0.string())
        })
    case "streamMovedByThePerson":
      return .streamMovedByThePerson(try body.stream())
    case "leftOverMutes":
      var streams: [UInt32: String] = [:]
      for (stream, address) in try body.strings() {
        guard let index = UInt32(stream) else {
          throw body.error("'\(stream)' is not a stream index")
        }
        streams[index] = address
      }
      return .leftOverMutes(streams)
    case "unpaired":
      return .unpaired(accessory: try body.require("accessory").string())
    case "bluetoothDisconnected":
      return .bluetoothDisconnected(
        accessory: try body.require("accessory").string())
    case "backSettled":
      return .backSettled(accessory: try body.require("accessory").string())
    default:
      throw node.error("unknown event '\(kind)'")
    }
  }
}

/// An effect a scenario expects; reasons and notes match by a part.
struct ExpectedEffect: CustomStringConvertible {
  let kind: String
  let node: Node

  init(_ node: Node) throws {
    let fields = try node.object()
    guard fields.count == 1, let (kind, body) = fields.first else {
      throw node.error("an effect is an object with one key")
    }
    self.kind = kind
    self.node = body
  }

  var description: String { "\(kind): \(node.value)" }

  func matches(_ effect: MediaEffect) -> Bool {
    (try? check(effect)) ?? false
  }

  private func reason(_ actual: String) throws -> Bool {
    guard let part = node["reason"] else { return true }
    return actual.contains(try part.string())
  }

  private func check(_ effect: MediaEffect) throws -> Bool {
    let accessory = try node["accessory"]?.string()
    switch (kind, effect) {
    case ("pause", .pause(let a, let streams, let cause)):
      return try a == accessory
        && streams == (try node.require("streams").streams())
        && cause == (try MediaScenario.cause(node.require("cause")))
    case ("announcePaused", .announcePaused(let a, let players, let why)):
      return try a == accessory
        && players == (try node.require("players").strings())
        && (try reason(why))
    case ("mute", .mute(let a, let streams, let why)):
      return try a == accessory
        && Set(streams) == (try node.require("streams").streams())
        && (try reason(why))
    case ("announceMuted", .announceMuted(let a, let streams, let why)):
      return try a == accessory
        && Set(streams) == (try node.require("streams").streams())
        && (try reason(why))
    case ("unmute", .unmute(let a, let streams, let why)):
      return try a == accessory
        && streams == (try node.require("streams").streams())
        && (try reason(why))
    case ("resume", .resume(let a, let players, let why)):
      return try a == accessory
        && players == (try node.require("players").strings())
        && (try reason(why))
    case ("note", .note(let a, let text)):
      return try a == accessory
        && text.contains(try node.require("text").string())
    default:
      return false
    }
  }
}

/// A value in a scenario file, with where it is for messages.
struct Node {
  let value: JSONValue
  let path: String

  init(_ value: JSONValue, _ path: String) {
    self.value = value
    self.path = path
  }

  func error(_ message: String) -> ScenarioError {
    ScenarioError("\(path): \(message)")
  }

  subscript(key: String) -> Node? {
    guard case .object(let fields) = value, let field = fields[key] else {
      return nil
    }
    return Node(field, "\(path).\(key)")
  }

  func require(_ key: String) throws -> Node {
    guard let node = self[key] else { throw error("'\(key)' must be given") }
    return node
  }

  func allow(_ keys: Set<String>) throws {
    guard case .object(let fields) = value else {
      throw error("must be an object")
    }
    let unknown = Set(fields.keys).subtracting(keys)
    guard unknown.isEmpty else {
      throw error("unknown keys: \(unknown.sorted().joined(separator: ", "))")
    }
  }

  func object() throws -> [String: Node] {
    guard case .object(let fields) = value else {
      throw error("must be an object")
    }
    return fields.reduce(into: [:]) {
      $0[$1.key] = Node($1.value, "\(path).\($1.key)")
    }
  }

  func list() throws -> [Node] {
    guard case .array(let items) = value else { throw error("must be a list") }
    return items.enumerated().map { Node($0.element, "\(path)[\($0.offset)]") }
  }

  func string() throws -> String {
    guard case .string(let text) = value else {
      throw error("must be a string")
    }
    return text
  }

  func number() throws -> Double {
    guard case .number(let number) = value else {
      throw error("must be a number")
    }
    return number
  }

  func bool() throws -> Bool {
    guard case .bool(let flag) = value else {
      throw error("must be true or false")
    }
    return flag
  }

  func stream() throws -> UInt32 {
    let number = try number()
    guard let index = UInt32(exactly: number) else {
      throw error("\(number) is not a stream or output index")
    }
    return index
  }

  func streams() throws -> Set<UInt32> {
    Set(try list().map { try $0.stream() })
  }

  func strings() throws -> [String: String] {
    try object().mapValues { try $0.string() }
  }
}
