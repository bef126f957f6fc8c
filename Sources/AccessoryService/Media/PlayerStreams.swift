// Which playback streams belong to which media player: by process, the
// way a person would tell (the stream's application.process.id is the
// player's, or a child of it, such as a browser's audio process).

import MPRIS
import PulseAudio

/// Finds the playback streams of media players.
struct PlayerStreams: Sendable {
  /// The parent of a process, or nil when unknown.
  let parent: @Sendable (Int32) -> Int32?

  /// The longest chain of parents followed from a stream's process.
  static let ancestryLimit = 32

  /// Reads parents from `/proc`.
  static let system = PlayerStreams(parent: ProcessFiles.parent(of:))

  /// The streams whose process is the player's process or one of its
  /// descendants.
  func streams(
    of player: MediaPlayer, among inputs: [SinkInput]
  ) -> [SinkInput] {
    guard let pid = player.processID else { return [] }
    return inputs.filter { input in
      guard var current = input.processID else { return false }
      for _ in 0..<Self.ancestryLimit {
        if current == pid { return true }
        guard let next = parent(current), next > 1, next != current else {
          return false
        }
        current = next
      }
      return false
    }
  }
}
