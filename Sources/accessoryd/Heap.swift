// glibc's allocator, set up for a daemon that is mostly idle.

import CMalloc

/// The settings of the C allocator the daemon and the Swift runtime share.
enum Heap {
  /// Keeps every thread's allocations in glibc's one main arena.
  ///
  /// glibc gives each new thread that allocates an arena of its own, up to
  /// eight per core, and each arena keeps its own free memory. The
  /// daemon's threads are the Swift runtime's pool, whose jobs are short
  /// and mostly take turns, so those arenas held memory that one arena
  /// reuses: with 100 accessories the daemon's private memory measured
  /// 0.8 MiB less in one arena, and pairing was no slower. glibc fixes the
  /// limit once several arenas exist, so this runs first thing.
  static func useOneArena() {
    _ = mallopt(M_ARENA_MAX, 1)
  }
}
