// The parsers that take outside input, each as a fuzz target: a function
// of bytes that must never crash, hang or break the invariant it checks.
// The libFuzzer executable (Fuzz/accessoryd-fuzz) and the regression
// tests (Tests/FuzzRegressionTests) run the same targets.

/// One parser the fuzzer drives.
package struct FuzzTarget: Sendable {
  /// The name `scripts/fuzz` takes, and of the target's corpus folder.
  package let name: String
  /// What the target reads, for `scripts/fuzz --list`.
  package let summary: String
  /// Feeds one input to the parser.
  ///
  /// - Returns: The invariant the input broke, nil if none. A crash or
  ///   sanitizer report is a failure too, found by the process dying.
  package let run: @Sendable ([UInt8]) -> String?

  /// Every target, in the order `scripts/fuzz` runs them.
  package static let all: [FuzzTarget] = [
    .controlRequest, .policy, .configuration, .acctlArguments, .bluezMessages,
    .aapPackets, .galaxyBudsStream,
  ]

  /// The target with this name.
  package static func named(_ name: String) -> FuzzTarget? {
    all.first { $0.name == name }
  }
}

extension [UInt8] {
  /// Cuts fuzz input into pieces: each starts with a byte giving the
  /// length of the piece that follows it (cut short at the end), so that
  /// one input can be many packets or many reads.
  func lengthPrefixedPieces() -> [ArraySlice<UInt8>] {
    var pieces: [ArraySlice<UInt8>] = []
    var index = startIndex
    while index < endIndex {
      let length = Int(self[index])
      let start = index + 1
      let end = Swift.min(start + length, endIndex)
      pieces.append(self[start..<end])
      index = end
    }
    return pieces
  }
}
