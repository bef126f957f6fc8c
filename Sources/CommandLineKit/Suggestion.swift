// "Did you mean": the known word closest to a mistyped one.

/// The candidate closest to a mistyped word, if one is close enough to be
/// what was meant: at most two letters added, removed, changed or swapped
/// (one for words of four letters or fewer), or a word it starts.
///
/// - Parameters:
///   - word: What was typed.
///   - candidates: The words that would have been understood.
/// - Returns: The closest candidate, the first of equals; nil if none is
///   close.
public func suggestion(for word: String, among candidates: [String]) -> String?
{
  let typed = Array(word.lowercased())
  guard !typed.isEmpty else { return nil }
  let allowed = typed.count <= 4 ? 1 : 2
  var best: (word: String, distance: Int)?
  for candidate in candidates where candidate != word {
    let distance = editDistance(typed, Array(candidate.lowercased()))
    let prefix = typed.count >= 3 && candidate.hasPrefix(word)
    guard distance <= allowed || prefix else { continue }
    let rank = prefix ? 0 : distance
    if best == nil || rank < best!.distance { best = (candidate, rank) }
  }
  return best?.word
}

/// The optimal string alignment distance: insertions, deletions,
/// substitutions and swaps of two neighbours, each counting one.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous2 = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        current[j] = min(current[j], previous2[j - 2] + 1)
      }
    }
    (previous2, previous, current) = (previous, current, previous2)
  }
  return previous[b.count]
}
