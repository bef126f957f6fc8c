// Pins the JSON-RPC error codes and the exit statuses to their values: both
// are interfaces (the wire, scripts, service managers and the manual
// pages), so a changed value must fail here first.

import AccessoryControl
import CommandLineKit
import Foundation
import Testing

@testable import AcctlCommands

@Suite struct ControlErrorCodeTests {
  @Test func wireValues() {
    let table: [(ControlErrorCode, Int)] = [
      (.parseError, -32700),
      (.invalidRequest, -32600),
      (.methodNotFound, -32601),
      (.invalidParams, -32602),
      (.internalError, -32603),
      (.accessoryUnknown, -32000),
      (.accessoryNotCapable, -32001),
      (.accessoryInvalidRequest, -32002),
      (.accessoryInvalidated, -32003),
      (.pickerAlreadyActive, -32010),
      (.noPicker, -32011),
      (.busy, -32075),
      (.permissionDenied, -32077),
      (.invalidConfiguration, -32078),
    ]
    for (code, value) in table {
      #expect(code.rawValue == value, "\(code)")
    }
    #expect(Set(table.map(\.0)).count == table.count)
  }

  @Test func errorsCarryTheirCodes() {
    #expect(ControlError.parseError("x").code == .parseError)
    #expect(ControlError.invalidRequest("x").code == .invalidRequest)
    #expect(ControlError.methodNotFound("x").code == .methodNotFound)
    #expect(ControlError.invalidParams("x").code == .invalidParams)
    #expect(ControlError.internalError("x").code == .internalError)
    #expect(ControlError.permissionDenied.code == .permissionDenied)
    #expect(ControlError.busy("x").code == .busy)
    #expect(
      ControlError.invalidConfiguration("x").code == .invalidConfiguration)
  }

  @Test func aBareNumberOnTheWire() throws {
    let error = ControlError(code: .noPicker, message: "gone")
    let text = String(decoding: try JSONEncoder().encode(error), as: UTF8.self)
    #expect(text.contains(#""code":-32011"#))
    #expect(error.json["code"] == .number(-32011))
    let unnamed = try JSONDecoder().decode(
      ControlError.self, from: Data(#"{"code":-32099,"message":"m"}"#.utf8))
    #expect(unnamed.code == ControlErrorCode(rawValue: -32099))
    #expect(
      ControlError(json: ["code": -32001, "message": "m"])?.code
        == .accessoryNotCapable)
  }
}

@Suite struct ProcessExitCodeTests {
  @Test func statuses() {
    let table: [(ProcessExitCode, Int32)] = [
      (.success, 0),
      (.failure, 1),
      (.accessoryNotCapable, 2),
      (.requestRefused, 3),
      (.invalidated, 4),
      (.problemFound, 5),
      (.usage, 64),
      (.dataError, 65),
      (.unavailable, 69),
      (.cannotCreate, 73),
      (.temporaryFailure, 75),
      (.noPermission, 77),
      (.configuration, 78),
      (.signal(SIGTERM), 143),
      (.signal(SIGINT), 130),
    ]
    for (code, value) in table {
      #expect(code.rawValue == value, "\(code)")
    }
    #expect(Set(table.map(\.0)).count == table.count)
  }

  /// CommandLineKit's own codes, which it raises without the table, agree
  /// with it.
  @Test func commandLineKitAgrees() {
    #expect(ExitCode.success == ExitCode(.success))
    #expect(ExitCode.failure == ExitCode(.failure))
    #expect(ExitCode.validationFailure == ExitCode(.usage))
  }

  /// acctl's manual lists every status it exits with, by the table.
  @Test func acctlManualStatuses() {
    let codes: [ProcessExitCode] = [
      .success, .failure, .accessoryNotCapable, .requestRefused, .invalidated,
      .problemFound, .usage, .unavailable, .noPermission, .configuration,
    ]
    #expect(
      Acctl.configuration.exitStatuses.map(\.code) == codes.map(\.rawValue))
  }

  @Test func acctlStatusForEachDaemonError() {
    let table: [(ControlErrorCode, ProcessExitCode)] = [
      (.accessoryNotCapable, .accessoryNotCapable),
      (.accessoryInvalidRequest, .requestRefused),
      (.invalidParams, .requestRefused),
      (.accessoryInvalidated, .invalidated),
      (.busy, .unavailable),
      (.permissionDenied, .noPermission),
      (.invalidConfiguration, .configuration),
      (.accessoryUnknown, .failure),
      (.internalError, .failure),
      (.methodNotFound, .failure),
      (.parseError, .failure),
      (.noPicker, .failure),
    ]
    for (code, status) in table {
      #expect(Daemon.exitCode(forCode: code) == ExitCode(status), "\(code)")
    }
  }
}
