// One way to say what a decoding error found wrong: the member's path,
// then what was expected there.

extension DecodingError {
  /// The error as `path.to.member: what was expected`, or only what was
  /// expected when the whole value is wrong.
  public var explained: String {
    switch self {
    case .dataCorrupted(let context), .typeMismatch(_, let context),
      .valueNotFound(_, let context), .keyNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty
        ? context.debugDescription
        : "\(path): \(context.debugDescription)"
    @unknown default:
      return "\(self)"
    }
  }
}
