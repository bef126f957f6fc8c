// Rule `profiles`: the card profiles an eligible accessory needs.

extension DecisionRun {
  func outputProfile(for card: Card) -> String? {
    guard policy.activateOutputProfile else { return nil }
    let active = card.profiles.first { $0.name == card.activeProfile }
    if let active, active.outputCount > 0 { return nil }
    return bestOutputProfile(of: card)
  }

  /// The card's available profile with an output and the highest
  /// priority; of equals, the first by name.
  func bestOutputProfile(of card: Card) -> String? {
    card.profiles.filter { $0.isAvailable && $0.outputCount > 0 }
      .min { ($1.priority, $0.name) < ($0.priority, $1.name) }?.name
  }

  /// Rule `profiles`: card profiles to activate for eligible accessories
  /// that have no output.
  mutating func requestProfiles(
    _ statuses: [AccessoryStatus]
  ) -> [ProfileRequest] {
    var requests: [ProfileRequest] = []
    for status in statuses {
      if case .needsProfile(let card, let profile, _, _) = status {
        requests.append(ProfileRequest(card: card, profile: profile))
      }
    }
    if explaining, !requests.isEmpty {
      step(
        "profiles",
        requests.map { "activate '\($0.profile)' on \($0.card)" }
          .joined(separator: "; "))
    }
    return requests
  }
}
