// The one version of accessoryd and acctl: both print the same line, and
// the daemon reports the number in `daemon.status`.

/// The version of accessoryd and acctl, which ship and change together.
public enum ProjectVersion {
  /// The version number, such as `0.1.0`.
  public static let number = "0.1.0"
  /// What `accessoryd --version` and `acctl --version` print.
  public static let line = "accessoryd \(number)"
}
