// The libpulse constants, re-exposed as Swift values for the files that
// import nothing from C.

internal import CPulse

var _PA_ERR_ACCESS: Int32 { Int32(PA_ERR_ACCESS.rawValue) }
var _PA_ERR_COMMAND: Int32 { Int32(PA_ERR_COMMAND.rawValue) }
var _PA_ERR_INVALID: Int32 { Int32(PA_ERR_INVALID.rawValue) }
var _PA_ERR_EXIST: Int32 { Int32(PA_ERR_EXIST.rawValue) }
var _PA_ERR_NOENTITY: Int32 { Int32(PA_ERR_NOENTITY.rawValue) }
var _PA_ERR_CONNECTIONREFUSED: Int32 {
  Int32(PA_ERR_CONNECTIONREFUSED.rawValue)
}
var _PA_ERR_PROTOCOL: Int32 { Int32(PA_ERR_PROTOCOL.rawValue) }
var _PA_ERR_TIMEOUT: Int32 { Int32(PA_ERR_TIMEOUT.rawValue) }
var _PA_ERR_AUTHKEY: Int32 { Int32(PA_ERR_AUTHKEY.rawValue) }
var _PA_ERR_INTERNAL: Int32 { Int32(PA_ERR_INTERNAL.rawValue) }
var _PA_ERR_CONNECTIONTERMINATED: Int32 {
  Int32(PA_ERR_CONNECTIONTERMINATED.rawValue)
}
var _PA_ERR_KILLED: Int32 { Int32(PA_ERR_KILLED.rawValue) }
var _PA_ERR_INVALIDSERVER: Int32 { Int32(PA_ERR_INVALIDSERVER.rawValue) }
var _PA_ERR_MODINITFAILED: Int32 { Int32(PA_ERR_MODINITFAILED.rawValue) }
var _PA_ERR_BADSTATE: Int32 { Int32(PA_ERR_BADSTATE.rawValue) }
var _PA_ERR_NODATA: Int32 { Int32(PA_ERR_NODATA.rawValue) }
var _PA_ERR_VERSION: Int32 { Int32(PA_ERR_VERSION.rawValue) }
var _PA_ERR_TOOLARGE: Int32 { Int32(PA_ERR_TOOLARGE.rawValue) }
var _PA_ERR_NOTSUPPORTED: Int32 { Int32(PA_ERR_NOTSUPPORTED.rawValue) }
var _PA_ERR_UNKNOWN: Int32 { Int32(PA_ERR_UNKNOWN.rawValue) }
var _PA_ERR_NOEXTENSION: Int32 { Int32(PA_ERR_NOEXTENSION.rawValue) }
var _PA_ERR_OBSOLETE: Int32 { Int32(PA_ERR_OBSOLETE.rawValue) }
var _PA_ERR_NOTIMPLEMENTED: Int32 { Int32(PA_ERR_NOTIMPLEMENTED.rawValue) }
var _PA_ERR_FORKED: Int32 { Int32(PA_ERR_FORKED.rawValue) }
var _PA_ERR_IO: Int32 { Int32(PA_ERR_IO.rawValue) }
var _PA_ERR_BUSY: Int32 { Int32(PA_ERR_BUSY.rawValue) }

/// Returns libpulse's text for an error code.
///
/// The corresponding C function is `pa_strerror`.
func pulseErrorText(_ code: Int32) -> String {
  guard let text = pa_strerror(code) else {
    return "unknown libpulse error \(code)"
  }
  return String(cString: text)
}
