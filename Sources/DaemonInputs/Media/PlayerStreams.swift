// Which playback streams belong to which media player: by process, the
// way a person would tell (the stream's application.process.id is the
// player's, or a child of it, such as a browser's audio process), then,
// for a player in a Flatpak sandbox, by its application id.

import DaemonLifecycle
import MPRIS
import SoundServerModel

/// Finds the playback streams of media players.
package struct PlayerStreams: Sendable {
  /// The parent of a process, or nil when unknown.
  let parent: @Sendable (Int32) -> Int32?
  /// The Flatpak application a process runs as, or nil.
  var flatpakAppID: @Sendable (Int32) -> String? = { _ in nil }

  /// Creates the reader from where it learns parents and applications.
  package init(
    parent: @escaping @Sendable (Int32) -> Int32?,
    flatpakAppID: @escaping @Sendable (Int32) -> String? = { _ in nil }
  ) {
    self.parent = parent
    self.flatpakAppID = flatpakAppID
  }

  /// The longest chain of parents followed from a stream's process.
  static let ancestryLimit = 32

  /// Reads parents from `/proc`.
  package static let system = PlayerStreams(
    parent: ProcessFiles.parent(of:),
    flatpakAppID: ProcessFiles.flatpakAppID(of:))

  /// The streams whose process is the player's process or one of its
  /// descendants, and, for a player in a Flatpak sandbox, those of the
  /// same application: PipeWire names it on the stream
  /// (`pipewire.access.portal.app_id`), else the stream's process runs in
  /// its sandbox.
  package func streams(
    of player: MediaPlayer, among inputs: [SinkInput]
  ) -> [SinkInput] {
    guard let pid = player.processID else { return [] }
    return inputs.filter { input in
      if let app = player.flatpakAppID, isOfApplication(input, app) {
        return true
      }
      return descends(input, from: pid)
    }
  }

  private func isOfApplication(_ input: SinkInput, _ app: String) -> Bool {
    if let named = input.properties["pipewire.access.portal.app_id"] {
      return named == app
    }
    return input.processID.flatMap(flatpakAppID) == app
  }

  private func descends(_ input: SinkInput, from pid: Int32) -> Bool {
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
