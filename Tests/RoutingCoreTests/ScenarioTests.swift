// Numbered routing scenarios kept as data (WirePlumber's tests/scripts/ in
// spirit): each file in Scenarios/ gives a policy, a snapshot and the
// expected decision. The runner decides and checks every expected field.

import AccessoryControl
import Foundation
import PolicyFiles
import RoutingCore
import Testing

/// The repository's policies/ folder.
private let policiesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("policies")

/// The folder of scenario files, next to this file.
let scenariosDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().appendingPathComponent("Scenarios")

/// The scenario files' names, sorted.
let scenarioFileNames: [String] =
  ((try? FileManager.default.contentsOfDirectory(
    atPath: scenariosDirectory.path)) ?? [])
  .filter { $0.hasSuffix(".json5") }.sorted()

@Suite("Routing scenarios")
struct ScenarioTests {
  @Test("Each scenario decides as expected", arguments: scenarioFileNames)
  func scenario(_ fileName: String) throws {
    let scenario = try Scenario.load(fileName)
    let decision = decide(scenario.snapshot, try scenario.loadPolicy())
    let expect = scenario.expect
    let context = Comment(rawValue: scenario.context(decision))

    #expect(decision.target == expect.target, context)
    #expect(decision.defaultChange == expect.defaultChange, context)
    let moves = decision.moves.map {
      ExpectedMove(stream: $0.stream, to: $0.to)
    }
    #expect(moves.sorted() == expect.moves.sorted(), context)
    #expect(
      decision.profileRequests.sorted(by: precedes)
        == expect.profileRequests.sorted(by: precedes), context)
    if let reconsiderAt = expect.reconsiderAt {
      #expect(decision.reconsiderAt == reconsiderAt, context)
    }
    if let inputChange = expect.defaultInputChange {
      #expect(decision.defaultInputChange == inputChange, context)
    }
    if let callPhase = expect.callPhase {
      #expect(decision.callPhase == callPhase, context)
    }
    #expect(decision.reassertsDefault == expect.reassertsDefault, context)
    let text = decision.explanation.text
    for part in expect.explanationContains {
      #expect(text.contains(part), "missing '\(part)'; \(context)")
    }
  }

  @Test(
    "Applying a scenario's decision leaves nothing to do",
    arguments: scenarioFileNames)
  func idempotent(_ fileName: String) throws {
    let scenario = try Scenario.load(fileName)
    let policy = try scenario.loadPolicy()
    let decision = decide(scenario.snapshot, policy)
    let again = decide(scenario.snapshot.applying(decision), policy)
    if let reason = scenario.notIdempotentBecause {
      #expect(
        again.hasActions,
        Comment(
          rawValue: "marked not idempotent (\(reason)), but it is; "
            + scenario.context(again)))
    } else {
      #expect(
        !again.hasActions,
        Comment(
          rawValue: "the decision after applying the first still acts; "
            + "first: \(scenario.context(decision))\nafter applying it:\n"
            + again.explanation.text))
    }
  }

  @Test("The scenarios cover every behaviour, numbered once each")
  func coverage() throws {
    try #require(!scenarioFileNames.isEmpty, "no scenarios found")
    var behaviours = Set<Int>()
    var numbers = Set<Substring>()
    for fileName in scenarioFileNames {
      let scenario = try Scenario.load(fileName)
      behaviours.insert(scenario.behaviour)
      let number = fileName.prefix { $0.isNumber }
      #expect(
        number.count == 2 && fileName.dropFirst(2).hasPrefix("-"),
        "\(fileName): expected a name like NN-short-name.json5")
      #expect(numbers.insert(number).inserted, "\(fileName): number reused")
    }
    #expect(behaviours == Set(Scenario.behaviours))
  }
}

// MARK: - Reading scenarios

/// One scenario file.
struct Scenario: Decodable {
  /// Where the policy comes from: a file in policies/ or written inline.
  enum PolicySource: Decodable {
    case file(String)
    case inline(JSONTree)

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let name = try? container.decode(String.self) {
        self = .file(name)
      } else {
        self = .inline(try container.decode(JSONTree.self))
      }
    }
  }

  /// The behaviours the scenarios show, by number: 1 to 10 the routing
  /// ones (the first scenario of each names it), 11 calls, 12 worn
  /// headphones keeping the output (connection.keepAudioWithHeadphones),
  /// 13 headphones nobody registered taking part
  /// (connection.followUnregisteredHeadphones).
  static let behaviours = 1...13

  var title: String
  var behaviour: Int
  var policy: PolicySource
  /// Sections merged over the policy before it is read.
  var policyChanges: JSONTree?
  var snapshot: Snapshot
  var expect: Expectation
  /// Whether deciding again after applying the decision does nothing.
  var idempotent: Bool?
  var idempotentReason: String?

  /// Why the scenario is not idempotent, when it is marked so.
  var notIdempotentBecause: String? {
    idempotent == false ? idempotentReason ?? "no reason given" : nil
  }

  /// Reads a scenario file, refusing keys the format does not know.
  static func load(_ fileName: String) throws -> Scenario {
    let data = try Data(
      contentsOf: scenariosDirectory.appendingPathComponent(fileName))
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    let tree = try decoder.decode(JSONTree.self, from: data)
    let unknown = ScenarioSchema.scenario.unknownKeys(in: tree, path: "")
    guard unknown.isEmpty else {
      throw ScenarioError(
        "\(fileName): unknown keys: \(unknown.joined(separator: ", "))")
    }
    let scenario = try decoder.decode(Scenario.self, from: data)
    guard behaviours.contains(scenario.behaviour) else {
      throw ScenarioError(
        "\(fileName): behaviour must be from 1 to \(behaviours.upperBound)")
    }
    if scenario.idempotent == false, scenario.idempotentReason == nil {
      throw ScenarioError(
        "\(fileName): idempotent: false needs an idempotentReason")
    }
    return scenario
  }

  /// Reads the scenario's policy, with its changes merged in.
  func loadPolicy() throws -> Policy {
    try Self.policy(policy, changes: policyChanges)
  }

  /// Reads a scenario's policy from its source, with changes merged in.
  static func policy(
    _ policy: PolicySource, changes policyChanges: JSONTree?
  ) throws -> Policy {
    let tree: JSONTree
    switch policy {
    case .file(let name):
      let url = policiesDirectory.appendingPathComponent(name + ".json5")
      guard policyChanges != nil else {
        return try PolicyLoader.load(contentsOf: url)
      }
      let decoder = JSONDecoder()
      decoder.allowsJSON5 = true
      tree = try decoder.decode(JSONTree.self, from: Data(contentsOf: url))
    case .inline(let inline):
      tree = inline
    }
    let merged = policyChanges.map { tree.merging($0) } ?? tree
    return try PolicyLoader.parse(JSONEncoder().encode(merged))
  }

  /// The title and the full explanation, for failure messages.
  func context(_ decision: Decision) -> String {
    "scenario '\(title)'\n\(decision.explanation.text)"
  }
}

/// The expected decision.
struct Expectation: Decodable {
  var target: String?
  var defaultChange: String?
  var moves: [ExpectedMove]
  var profileRequests: [ProfileRequest]
  /// `nil` when not given; `.some(nil)` when given as `null`.
  var reconsiderAt: Instant??
  var explanationContains: [String]
  /// Whether the decision sets the default again; `false` when not given.
  var reassertsDefault: Bool
  /// `nil` when not given; `.some(nil)` when given as `null`.
  var defaultInputChange: String??
  /// Where the call stands; not checked when not given.
  var callPhase: CallPhase?

  private enum CodingKeys: String, CodingKey {
    case target, defaultChange, moves, profileRequests, reconsiderAt
    case explanationContains, reassertsDefault, defaultInputChange, callPhase
  }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    // target, defaultChange and moves must be written, even when null or
    // empty, so that a scenario always states them.
    for key in [CodingKeys.target, .defaultChange, .moves]
    where !c.contains(key) {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: c.codingPath,
          debugDescription: "expect.\(key.rawValue) must be given"))
    }
    target = try c.decodeIfPresent(String.self, forKey: .target)
    defaultChange = try c.decodeIfPresent(String.self, forKey: .defaultChange)
    moves = try c.decode([ExpectedMove].self, forKey: .moves)
    profileRequests =
      try c.decodeIfPresent([ProfileRequest].self, forKey: .profileRequests)
      ?? []
    if c.contains(.reconsiderAt) {
      reconsiderAt = .some(
        try c.decodeIfPresent(Instant.self, forKey: .reconsiderAt))
    } else {
      reconsiderAt = nil
    }
    explanationContains =
      try c.decodeIfPresent([String].self, forKey: .explanationContains) ?? []
    reassertsDefault =
      try c.decodeIfPresent(Bool.self, forKey: .reassertsDefault) ?? false
    if c.contains(.defaultInputChange) {
      defaultInputChange = .some(
        try c.decodeIfPresent(String.self, forKey: .defaultInputChange))
    } else {
      defaultInputChange = nil
    }
    callPhase = try c.decodeIfPresent(CallPhase.self, forKey: .callPhase)
  }
}

/// An expected stream move: the stream and where it goes.
struct ExpectedMove: Decodable, Hashable, Comparable, CustomStringConvertible {
  var stream: UInt32
  var to: String

  static func < (a: ExpectedMove, b: ExpectedMove) -> Bool {
    (a.stream, a.to) < (b.stream, b.to)
  }

  var description: String { "#\(stream) → \(to)" }
}

func precedes(_ a: ProfileRequest, _ b: ProfileRequest) -> Bool {
  (a.card, a.profile) < (b.card, b.profile)
}

struct ScenarioError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

// MARK: - JSON trees

/// A JSON5 value, for merging policy changes and checking keys.
typealias JSONTree = JSONValue

extension JSONValue {
  /// Returns the tree with changes merged in: objects are merged key by
  /// key, anything else is replaced.
  func merging(_ changes: JSONTree) -> JSONTree {
    guard case .object(var fields) = self, case .object(let new) = changes
    else { return changes }
    for (key, value) in new {
      fields[key] = fields[key].map { $0.merging(value) } ?? value
    }
    return .object(fields)
  }
}

/// The keys a scenario file may use, so that a misspelt key fails instead
/// of being ignored.
indirect enum ScenarioSchema: Sendable {
  case object([String: ScenarioSchema])
  case list(ScenarioSchema)
  case any

  /// The key paths in a tree that the schema does not know.
  func unknownKeys(in tree: JSONTree, path: String) -> [String] {
    switch (self, tree) {
    case (.object(let keys), .object(let fields)):
      return fields.keys.sorted().flatMap { key -> [String] in
        let keyPath = path.isEmpty ? key : "\(path).\(key)"
        guard let schema = keys[key] else { return [keyPath] }
        return schema.unknownKeys(in: fields[key]!, path: keyPath)
      }
    case (.list(let element), .array(let elements)):
      return elements.enumerated().flatMap {
        element.unknownKeys(in: $0.element, path: "\(path)[\($0.offset)]")
      }
    default:
      return []
    }
  }

  static func fields(_ names: [String]) -> ScenarioSchema {
    .object(Dictionary(uniqueKeysWithValues: names.map { ($0, .any) }))
  }

  static let snapshot = ScenarioSchema.object([
    "accessories": .list(
      fields([
        "address", "name", "audioSwitching", "reportsPlacement", "placement",
        "primarySource", "secondarySource", "placementChangedAt",
        "connectionChangedAt", "outputMissingSince", "registeredAt",
        "reportedWorn", "isRegistered",
      ])),
    "outputs": .list(
      .object([
        "name": .any, "description": .any, "properties": .any,
        "ports": .list(fields(["name", "isAvailable"])), "activePort": .any,
        "accessory": .any, "isHeadphones": .any,
      ])),
    "cards": .list(
      .object([
        "name": .any, "accessory": .any, "activeProfile": .any,
        "profiles": .list(
          fields([
            "name", "outputCount", "inputCount", "priority", "isAvailable",
          ])),
      ])),
    "streams": .list(
      fields(["id", "output", "role", "application", "pinnedBy"])),
    "defaultOutput": .any,
    "manualChoice": fields(["output", "at"]),
    "hostAddresses": .any,
    "outputHistory": .any,
    "goneConfiguredOutput": fields(["name", "accessory"]),
    "defaultTakenOnArrival": fields(["output", "previous"]),
    "defaultOutputSince": .any,
    "monitorFollowsTheDefault": .any,
    "forgottenAccessories": .any,
    "inputs": .list(
      fields([
        "name", "description", "properties", "ports", "activePort",
        "accessory", "monitorOf",
      ])),
    "captureStreams": .list(
      fields([
        "id", "input", "role", "application", "isCorked", "isPeakMeter",
        "recordingSince",
      ])),
    "defaultInput": .any,
    "inputHistory": .any,
    "manualInputChoice": fields(["output", "at"]),
    "callProfiles": .list(fields(["card", "previousProfile", "callProfile"])),
    "callEndedAt": .any,
    "callInput": .any,
    "now": .any,
  ])

  static let scenario = ScenarioSchema.object([
    "title": .any, "behaviour": .any, "policy": .any, "policyChanges": .any,
    "snapshot": snapshot,
    "expect": .object([
      "target": .any, "defaultChange": .any,
      "moves": .list(fields(["stream", "to"])),
      "profileRequests": .list(
        fields(["card", "profile", "purpose", "previousProfile"])),
      "reconsiderAt": .any, "explanationContains": .any,
      "reassertsDefault": .any, "defaultInputChange": .any, "callPhase": .any,
    ]),
    "idempotent": .any, "idempotentReason": .any,
  ])
}
