// The local time of day, as the daemon's log lines in a terminal and
// acctl's events start with it.

import Glibc

/// The local time of day of an instant, `HH:MM:SS.mmm`.
public enum LocalTime {
  /// Returns the local time of day now.
  public static func now() -> String {
    var instant = timespec()
    clock_gettime(CLOCK_REALTIME, &instant)
    return ofDay(instant)
  }

  /// Returns the local time of day of an instant, `HH:MM:SS.mmm`.
  public static func ofDay(_ instant: timespec) -> String {
    var seconds = instant.tv_sec
    var parts = tm()
    localtime_r(&seconds, &parts)
    func padded(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count))
        + digits
    }
    return padded(Int(parts.tm_hour), 2) + ":" + padded(Int(parts.tm_min), 2)
      + ":" + padded(Int(parts.tm_sec), 2) + "."
      + padded(Int(instant.tv_nsec / 1_000_000), 3)
  }
}
