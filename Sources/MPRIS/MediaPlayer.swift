// One media player on the session bus as the MPRIS specification describes
// it (org.mpris.MediaPlayer2 and its Player interface), and the changes a
// client hears of.

/// A media player that serves MPRIS on the session bus, such as mpv with
/// mpv-mpris, a browser or Spotify.
public struct MediaPlayer: Sendable, Hashable {
  /// What the player is doing, as MPRIS's `PlaybackStatus` says.
  public enum PlaybackStatus: String, Sendable, Hashable, CaseIterable {
    /// Playing.
    case playing = "Playing"
    /// Paused: `Play` resumes where it stopped.
    case paused = "Paused"
    /// Stopped.
    case stopped = "Stopped"
  }

  /// The well-known bus name, such as `org.mpris.MediaPlayer2.mpv`.
  public var busName: String
  /// The unique name of the connection that owns it, such as `:1.42`.
  public var uniqueName: String
  /// The player's name for people (`Identity`), if it gives one.
  public var identity: String?
  /// Its desktop entry's name (`DesktopEntry`), if it gives one.
  public var desktopEntry: String?
  /// What it is doing.
  public var playbackStatus: PlaybackStatus
  /// Whether `Pause` may work (`CanPause`).
  public var canPause: Bool
  /// Whether `Play` may work (`CanPlay`).
  public var canPlay: Bool
  /// The process that owns the bus name, as the bus reports it.
  public var processID: Int32?
  /// The process's command name (`/proc/PID/comm`), if it could be read.
  public var processName: String?
  /// The Flatpak application the process belongs to, such as
  /// `org.videolan.VLC`, when it runs in a Flatpak sandbox: the bus then
  /// names the sandbox's D-Bus proxy, not the player's own process.
  public var flatpakAppID: String?

  /// Creates a player record.
  public init(
    busName: String, uniqueName: String, identity: String? = nil,
    desktopEntry: String? = nil, playbackStatus: PlaybackStatus = .stopped,
    canPause: Bool = false, canPlay: Bool = false, processID: Int32? = nil,
    processName: String? = nil, flatpakAppID: String? = nil
  ) {
    self.busName = busName
    self.uniqueName = uniqueName
    self.identity = identity
    self.desktopEntry = desktopEntry
    self.playbackStatus = playbackStatus
    self.canPause = canPause
    self.canPlay = canPlay
    self.processID = processID
    self.processName = processName
    self.flatpakAppID = flatpakAppID
  }

  /// Whether BlueZ's `mpris-proxy` serves it for a remote Bluetooth device
  /// (a phone that plays to this host): not media this host plays.
  public var isBluetoothProxy: Bool { processName == "mpris-proxy" }

  /// The name to show: the identity, else the bus name without
  /// `org.mpris.MediaPlayer2.`.
  public var displayName: String {
    if let identity, !identity.isEmpty { return identity }
    return String(busName.dropFirst(MPRISNames.busNamePrefix.count))
  }
}

/// A change to the players on the bus.
public enum MediaPlayerChange: Sendable, Hashable {
  /// A player came, with everything read about it.
  case appeared(MediaPlayer)
  /// A player's playback status or abilities changed.
  case changed(MediaPlayer)
  /// The player with this bus name went away.
  case vanished(busName: String)
}

/// The names MPRIS and the bus use.
enum MPRISNames {
  static let busNamePrefix = "org.mpris.MediaPlayer2."
  static let path = "/org/mpris/MediaPlayer2"
  static let rootInterface = "org.mpris.MediaPlayer2"
  static let playerInterface = "org.mpris.MediaPlayer2.Player"
  static let properties = "org.freedesktop.DBus.Properties"
  static let bus = "org.freedesktop.DBus"
  static let busPath = "/org/freedesktop/DBus"
}
