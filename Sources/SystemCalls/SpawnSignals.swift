// A child started with posix_spawn gets its signals as a fresh process has
// them: none blocked, and the usual ones at their default action, whatever
// the spawning thread blocks or the parent ignores.

#if canImport(Glibc)
  import Glibc
#endif

/// The signals a spawned child starts with.
public enum SpawnSignals {
  /// Sets spawn attributes so that the child blocks no signal and has
  /// SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGCHLD at their
  /// default action.
  ///
  /// - Parameter attributes: Initialized attributes.
  /// - Returns: The flags this needs, `POSIX_SPAWN_SETSIGMASK` and
  ///   `POSIX_SPAWN_SETSIGDEF`, to combine with others for
  ///   `posix_spawnattr_setflags`.
  public static func reset(
    _ attributes: inout posix_spawnattr_t
  ) -> Int32 {
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    return POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
  }
}
