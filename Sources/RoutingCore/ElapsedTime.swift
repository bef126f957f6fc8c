// How long ago something happened, in the words every part of accessoryd
// shows it: route --explain, status, output, the history and the tray read
// alike.

/// Spans of time before now, as a person reads them.
public enum ElapsedTime {
  /// Returns a span of seconds before now in words: `just now` under
  /// 0.05 s (and for an instant a hair ahead of the clock that reads it,
  /// never `in 0 s`), then ``span(_:)`` with `ago`: `0.4 s ago`,
  /// `5.1 s ago`, `42 s ago`, `5 min ago`, `2 h ago`.
  public static func ago(_ seconds: Double) -> String {
    guard seconds >= 0.05 else { return "just now" }
    return span(seconds) + " ago"
  }

  /// Returns a span of seconds in the unit a person reads it in: tenths of
  /// a second under 10 s (`0.4 s`, `5.1 s`, `3 s`), whole seconds under
  /// 90 s, then minutes and hours.
  public static func span(_ seconds: Double) -> String {
    let seconds = max(seconds, 0)
    switch seconds {
    case ..<9.95: return "\(formatSeconds(seconds)) s"
    case ..<89.5: return "\(Int(seconds.rounded())) s"
    case ..<7170: return "\(Int((seconds / 60).rounded())) min"
    default: return "\(Int((seconds / 3600).rounded())) h"
    }
  }
}
