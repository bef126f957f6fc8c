// Load for tests that must hold when the machine is busy: shell loops that
// never sleep, one per core to occupy.

/// Busy loops that keep the machine's cores occupied while a test runs.
public struct BusyLoops: Sendable {
  private let programs: [ProgramRun]

  /// Starts `count` shell loops that never sleep.
  ///
  /// - Throws: ``SoundServerError`` if `/bin/sh` cannot be started.
  public static func start(_ count: Int) throws -> BusyLoops {
    var programs: [ProgramRun] = []
    do {
      for _ in 0..<count {
        programs.append(
          try ProgramRun.start(
            "/bin/sh", ["-c", "while :; do :; done"], environment: [:]))
      }
    } catch {
      programs.forEach { $0.stopInBackground() }
      throw error
    }
    return BusyLoops(programs: programs)
  }

  /// Ends the loops.
  public func stop() {
    programs.forEach { $0.stopInBackground() }
  }
}
