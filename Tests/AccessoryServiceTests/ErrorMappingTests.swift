import AccessoryService
import AudioAccessoryKit
import PulseAudio
import Testing

@Suite("Error mapping")
struct ErrorMappingTests {
  typealias Category = AccessoryControlDevice.Error

  /// The documented table, row by row, for every code libpulse defines.
  static let table: [(PulseError, Category)] = [
    (.accessDenied, .unknown), (.unknownCommand, .unknown),
    (.invalidArgument, .invalidRequest), (.entityExists, .unknown),
    (.noSuchEntity, .invalidated), (.connectionRefused, .unknown),
    (.protocolError, .unknown), (.timeout, .unknown),
    (.noAuthenticationKey, .unknown), (.internalError, .unknown),
    (.connectionTerminated, .unknown), (.entityKilled, .unknown),
    (.invalidServer, .unknown), (.moduleInitializationFailed, .unknown),
    (.badState, .unknown), (.noData, .unknown),
    (.incompatibleVersion, .unknown), (.tooLarge, .invalidRequest),
    (.notSupported, .accessoryNotCapable), (.unknown, .unknown),
    (.noExtension, .accessoryNotCapable), (.obsolete, .accessoryNotCapable),
    (.notImplemented, .accessoryNotCapable), (.forked, .unknown),
    (.inputOutput, .unknown), (.busy, .unknown),
  ]

  @Test func everyLibpulseErrorHasItsRow() {
    #expect(Self.table.map(\.0) == PulseError.allKnown)
    for (error, category) in Self.table {
      #expect(
        AccessoryControlFailure.category(of: error) == category,
        "\(error)")
    }
    #expect(
      AccessoryControlFailure.category(of: PulseError(rawValue: 999))
        == .unknown)
  }

  @Test func theReasonNamesTheActionAndTheCause() {
    #expect(
      AccessoryControlFailure(
        .noSuchEntity, while: "move audio to 'Studio Buds'")
        == .invalidated(
          reason: "cannot move audio to 'Studio Buds': the sound server "
            + "answered \"No such entity\" (libpulse error 5)"))
    #expect(
      AccessoryControlFailure(.connectionRefused, while: "set the output")
        == .unknown(
          reason: "cannot set the output: the sound server answered "
            + "\"Connection refused\" (libpulse error 6)"))
    #expect(
      AccessoryControlFailure(.notSupported, while: "switch profile")
        == .accessoryNotCapable(
          reason: "cannot switch profile: the sound server answered "
            + "\"Not supported\" (libpulse error 19)"))
    #expect(
      AccessoryControlFailure(.invalidArgument, while: "move audio")
        == .invalidRequest(
          reason: "cannot move audio: the sound server answered "
            + "\"Invalid argument\" (libpulse error 3)"))
  }
}
