// Rule `streams`: which streams move, and where.

extension DecisionRun {
  /// Rule `streams`: which streams move to the target, or to the output
  /// their role is routed to.
  mutating func planMoves(
    target: Int?, statuses: [AccessoryStatus]
  ) -> [StreamMove] {
    guard let target else {
      if explaining { step("streams", "no stream moves") }
      return []
    }
    let targetName = outputs[target].name
    // Routes by role, worked out once per role; streams share a few roles,
    // so a list compared by equality beats hashing each stream's role.
    var routes: [(role: String, output: String?)] = []
    var moves: [StreamMove] = []
    var candidates: [Explanation.Candidate] = []
    let inOrder = zip(snapshot.streams, snapshot.streams.dropFirst())
      .allSatisfy { $0.id < $1.id }
    let streams =
      inOrder ? snapshot.streams : snapshot.streams.sorted { $0.id < $1.id }
    for stream in streams {
      if let pin = stream.pinnedBy {
        if explaining {
          candidates.append(
            .init(
              subject: subject(of: stream), verdict: .rejected,
              reason: pin.reason(onOutput: stream.output)))
        }
        continue
      }
      var destination: String?
      var routedRole: String?
      if let role = stream.role, !policy.roleRoutes.isEmpty {
        let routed: String?
        if let known = routes.first(where: { $0.role == role }) {
          routed = known.output
        } else {
          routed = routedOutput(role: role, statuses: statuses)
          routes.append((role, routed))
        }
        if let routed {
          destination = routed
          routedRole = role
        }
      }
      if destination == nil, policy.streamsFollow {
        destination = targetName
      }
      guard let destination, destination != stream.output else {
        if explaining {
          candidates.append(
            .init(
              subject: subject(of: stream), verdict: .passedOver,
              reason: destination == nil
                ? "the policy does not move streams"
                : "already on \(stream.output)"))
        }
        continue
      }
      moves.append(
        StreamMove(stream: stream.id, from: stream.output, to: destination))
      if explaining {
        let why =
          routedRole.map { "role '\($0)' is routed to \(destination)" }
          ?? "follows the default"
        candidates.append(
          .init(
            subject: subject(of: stream), verdict: .chosen,
            reason: "moves from \(stream.output) to \(destination): \(why)"))
      }
    }
    if explaining {
      step(
        "streams",
        "\(moves.count) of \(snapshot.streams.count) streams move", candidates)
    }
    return moves
  }

  func routedOutput(role: String, statuses: [AccessoryStatus]) -> String? {
    guard let route = policy.roleRoutes.first(where: { $0.role == role })
    else { return nil }
    for match in route.outputs {
      var best: Int?
      for (position, output) in outputs.enumerated() {
        guard usable[position], match.matches(output) else { continue }
        if let accessory = owner[position], !statuses[accessory].isEligible {
          continue
        }
        if let current = best,
          facts.priority(current) >= facts.priority(position)
        {
          continue
        }
        best = position
      }
      if let best { return outputs[best].name }
    }
    return nil
  }
}
