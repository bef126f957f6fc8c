// The policy schema is the one table of the policy format: the loader reads
// every key of it and no other, and policies/README.md's table of settings
// is written from it.

import Foundation
import PolicyFiles
import RoutingCore
import Testing

/// A policy text with one setting given a value, in its object.
private func policyText(_ setting: PolicySetting, value: String) -> String {
  if setting.section.isEmpty {
    return setting.key == "version"
      ? "{ version: \(value) }" : "{ version: 1, \(setting.name): \(value) }"
  }
  return "{ version: 1, \(setting.section): { \(setting.name): \(value) } }"
}

/// A value of the setting's type other than its default, or nil for the
/// settings with one value or with lists.
private func otherValue(_ setting: PolicySetting) -> String? {
  switch setting.kind {
  case .boolean: setting.defaultValue == "true" ? "false" : "true"
  case .seconds(let limit): String(limit)
  case .wholeNumber: nil
  case .text: "\"another\""
  case .choice(let values):
    values.map { "\"\($0.value)\"" }.first { $0 != setting.defaultValue }
  case .list: nil
  }
}

@Suite("The policy schema")
struct PolicySchemaTests {
  @Test(
    "The loader reads each setting at its key path",
    arguments: PolicySchema.settings.map(\.key))
  func loaderReadsEachSetting(_ key: String) throws {
    let setting = try #require(PolicySchema.settings.first { $0.key == key })
    // A value of the wrong type is refused at exactly this key path.
    let wrong: String =
      switch setting.kind {
      case .list: "5"
      default: "[]"
      }
    #expect {
      _ = try PolicyLoader.parse(
        Data(policyText(setting, value: wrong).utf8))
    } throws: { error in
      (error as? PolicyError)?.keyPath == key
    }
    // Another value of the right type is used.
    if let other = otherValue(setting) {
      let policy = try PolicyLoader.parse(
        Data(policyText(setting, value: other).utf8))
      #expect(policy != Policy(), "\(key): \(other)")
    }
  }

  @Test(
    "An unknown key names exactly the schema's keys of its object",
    arguments: [""] + PolicySchema.sections)
  func unknownKeysListTheSchema(_ section: String) throws {
    let text =
      section.isEmpty
      ? "{ version: 1, surprise: 1 }"
      : "{ version: 1, \(section): { surprise: 1 } }"
    let keys =
      PolicySchema.settings.filter { $0.section == section }.map(\.name)
      + (section.isEmpty ? PolicySchema.sections : [])
    #expect {
      _ = try PolicyLoader.parse(Data(text.utf8))
    } throws: { error in
      let error = error as? PolicyError
      return error?.keyPath == (section.isEmpty ? "" : section + ".")
        + "surprise"
        && error?.problem == "is not a known setting; expected one of "
          + keys.map { "'\($0)'" }.joined(separator: ", ")
    }
  }

  @Test(
    "policies/README.md's and docs/configuration.md's tables are the schema's")
  func readmeTables() throws {
    var settings = [
      tableRow(["key", "meaning", "type", "default", "allowed"]),
      "| --- | --- | --- | --- | --- |",
    ]
    for setting in PolicySchema.settings {
      var value =
        setting.isRequired ? "required" : "`\(setting.defaultValue)`"
      if let note = setting.defaultNote { value += " (\(note))" }
      settings.append(
        tableRow([
          "`\(setting.key)`", setting.meaning, setting.typeText, value,
          setting.valuesText,
        ]))
    }
    try checkReadmeTable("policy settings", rows: settings)
    try checkReadmeTable(
      "output match keys",
      rows: [tableRow(["key", "matches"]), "| --- | --- |"]
        + PolicySchema.outputMatchFields.map {
          tableRow(["`\($0.key)`", $0.meaning])
        })
  }
}

/// One row of a Markdown table, its cells escaped.
private func tableRow(_ cells: [String]) -> String {
  "| " + cells.map { $0.replacing("|", with: "\\|") }.joined(separator: " | ")
    + " |"
}

/// Requires a table of policies/README.md and of the manual's
/// docs/configuration.md to be these rows; writes them into both instead
/// when ACCESSORYD_WRITE_README is set.
private func checkReadmeTable(_ name: String, rows: [String]) throws {
  try checkTable(
    name, rows: rows, in: policiesDirectory.appendingPathComponent("README.md"),
    shownAs: "policies/README.md")
  try checkTable(
    name, rows: rows,
    in: policiesDirectory.deletingLastPathComponent()
      .appendingPathComponent("docs").appendingPathComponent(
        "configuration.md"),
    shownAs: "docs/configuration.md")
}

/// Requires a table of one file to be these rows, or writes them.
private func checkTable(
  _ name: String, rows: [String], in readme: URL, shownAs shown: String
) throws {
  let text = try String(contentsOf: readme, encoding: .utf8)
  let startMarker =
    "<!-- \(name): written by PolicySchemaTests; "
    + "ACCESSORYD_WRITE_README=1 swift test --filter PolicySchemaTests "
    + "writes it again -->"
  let start = try #require(text.range(of: startMarker))
  let end = try #require(
    text.range(
      of: "<!-- end of \(name) -->", range: start.upperBound..<text.endIndex))
  let table = "\n\n" + rows.joined(separator: "\n") + "\n\n"
  if ProcessInfo.processInfo.environment["ACCESSORYD_WRITE_README"] != nil {
    try text.replacingCharacters(
      in: start.upperBound..<end.lowerBound, with: table
    ).write(to: readme, atomically: true, encoding: .utf8)
    return
  }
  #expect(
    String(text[start.upperBound..<end.lowerBound]) == table,
    """
    \(shown)'s table '\(name)' is not the schema's; \
    ACCESSORYD_WRITE_README=1 swift test --filter PolicySchemaTests writes \
    it again:
    \(table)
    """)
}
