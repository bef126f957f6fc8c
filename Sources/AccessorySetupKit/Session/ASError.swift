// Apple's ASError: the errors of AccessorySetupKit, with Apple's codes.

/// An error of an ``ASAccessorySession``.
///
/// Match it as on Apple's platforms: `catch let error as ASError where
/// error.code == .userCancelled`.
public struct ASError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kinds of error, with Apple's raw values.
  public enum Code: Int, Sendable, Hashable {
    /// The operation succeeded.
    case success = 0
    /// An unknown failure.
    case unknown = 1
    /// The session could not be activated: accessoryd is not reachable.
    case activationFailed = 100
    /// The connection to accessoryd failed.
    case connectionFailed = 150
    /// Discovery timed out.
    case discoveryTimeout = 200
    /// The app extension was not found.
    case extensionNotFound = 300
    /// The session was invalidated before the operation finished.
    case invalidated = 400
    /// The request was invalid, such as a picker shown before activation
    /// or a descriptor with an undeclared identifier.
    case invalidRequest = 450
    /// A picker is already shown.
    case pickerAlreadyActive = 500
    /// The picker cannot be shown now.
    case pickerRestricted = 550
    /// The person cancelled.
    case userCancelled = 700
    /// The person restricted access.
    case userRestricted = 750
  }

  /// The kind of error.
  public let code: Code
  /// What went wrong, in words.
  public let message: String

  /// Creates an error with a message: the Linux form, which every error of
  /// this module's own uses.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// Creates an error as Apple's `ASError(_:userInfo:)` does.
  ///
  /// A string under `NSLocalizedDescription` becomes the message; other
  /// entries are not kept.
  ///
  /// - Parameters:
  ///   - code: The kind of error.
  ///   - userInfo: The error's information.
  public init(_ code: Code, userInfo: [String: Any] = [:]) {
    self.init(
      code,
      userInfo["NSLocalizedDescription"] as? String
        ?? "AccessorySetupKit error \(code.rawValue)")
  }

  /// The code's raw value, as `CustomNSError` names it.
  public var errorCode: Int { code.rawValue }

  /// The message under `NSLocalizedDescription`, as `CustomNSError` names
  /// it.
  public var errorUserInfo: [String: String] {
    ["NSLocalizedDescription": message]
  }

  /// The message.
  public var description: String { message }

  /// The error domain, as Apple names it.
  public static let errorDomain = "com.apple.accessorysetupkit"

  /// ``Code/activationFailed``.
  public static var activationFailed: Code { .activationFailed }
  /// ``Code/connectionFailed``.
  public static var connectionFailed: Code { .connectionFailed }
  /// ``Code/discoveryTimeout``.
  public static var discoveryTimeout: Code { .discoveryTimeout }
  /// ``Code/extensionNotFound``.
  public static var extensionNotFound: Code { .extensionNotFound }
  /// ``Code/invalidated``.
  public static var invalidated: Code { .invalidated }
  /// ``Code/invalidRequest``.
  public static var invalidRequest: Code { .invalidRequest }
  /// ``Code/pickerAlreadyActive``.
  public static var pickerAlreadyActive: Code { .pickerAlreadyActive }
  /// ``Code/pickerRestricted``.
  public static var pickerRestricted: Code { .pickerRestricted }
  /// ``Code/userCancelled``.
  public static var userCancelled: Code { .userCancelled }
  /// ``Code/userRestricted``.
  public static var userRestricted: Code { .userRestricted }
}

extension ASError.Code {
  /// Matches an error of this code, so that `catch ASError.userCancelled`
  /// works as on Apple's platforms.
  public static func ~= (code: ASError.Code, error: any Error) -> Bool {
    (error as? ASError)?.code == code
  }
}
