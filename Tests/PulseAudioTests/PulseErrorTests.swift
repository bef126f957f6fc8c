// The error table, pinned to libpulse's own values.

import CPulse
import PulseAudio
import SoundServerModel
import Testing

@Suite("PulseError")
struct PulseErrorTests {
  @Test func everyConstantHasItsCValue() {
    let table: [(PulseError, pa_error_code)] = [
      (.accessDenied, PA_ERR_ACCESS), (.unknownCommand, PA_ERR_COMMAND),
      (.invalidArgument, PA_ERR_INVALID), (.entityExists, PA_ERR_EXIST),
      (.noSuchEntity, PA_ERR_NOENTITY),
      (.connectionRefused, PA_ERR_CONNECTIONREFUSED),
      (.protocolError, PA_ERR_PROTOCOL), (.timeout, PA_ERR_TIMEOUT),
      (.noAuthenticationKey, PA_ERR_AUTHKEY),
      (.internalError, PA_ERR_INTERNAL),
      (.connectionTerminated, PA_ERR_CONNECTIONTERMINATED),
      (.entityKilled, PA_ERR_KILLED), (.invalidServer, PA_ERR_INVALIDSERVER),
      (.moduleInitializationFailed, PA_ERR_MODINITFAILED),
      (.badState, PA_ERR_BADSTATE), (.noData, PA_ERR_NODATA),
      (.incompatibleVersion, PA_ERR_VERSION), (.tooLarge, PA_ERR_TOOLARGE),
      (.notSupported, PA_ERR_NOTSUPPORTED), (.unknown, PA_ERR_UNKNOWN),
      (.noExtension, PA_ERR_NOEXTENSION), (.obsolete, PA_ERR_OBSOLETE),
      (.notImplemented, PA_ERR_NOTIMPLEMENTED), (.forked, PA_ERR_FORKED),
      (.inputOutput, PA_ERR_IO), (.busy, PA_ERR_BUSY),
    ]
    for (error, code) in table {
      #expect(error.rawValue == Int32(code.rawValue), "\(error)")
    }
    // Every code below PA_ERR_MAX is named, once, in code order.
    #expect(table.count == Int(PA_ERR_MAX.rawValue) - 1)
    #expect(PulseError.allKnown == table.map(\.0))
  }

  @Test func theServerNeutralErrorsHaveLibpulsesCodesAndText() {
    let pairs: [(SoundServerError, PulseError)] = [
      (.accessDenied, .accessDenied), (.noSuchEntity, .noSuchEntity),
      (.timeout, .timeout), (.connectionTerminated, .connectionTerminated),
    ]
    for (neutral, pulse) in pairs {
      #expect(neutral.code == pulse.rawValue, "\(neutral)")
      #expect(neutral.description == pulse.description)
      #expect(SoundServerError(pulse) == neutral)
    }
    // Equal by code: the text is only the library's wording of it.
    #expect(
      SoundServerError(code: 5, description: "something else") == .noSuchEntity)
  }

  @Test func textComesFromLibpulse() {
    #expect(PulseError.noSuchEntity.description == "No such entity")
    #expect(PulseError.timeout.description == "Timeout")
    for error in PulseError.allKnown {
      #expect(
        error.description == String(cString: pa_strerror(error.rawValue)))
    }
  }

  @Test func unknownCodesAreKept() {
    let future = PulseError(rawValue: 4242)
    #expect(future.rawValue == 4242)
    #expect(future != .unknown)
    #expect(future.description == "unknown libpulse error 4242")
  }
}
