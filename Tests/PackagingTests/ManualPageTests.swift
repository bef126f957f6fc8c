// The manual pages acctl(1) and accessoryd(8), as `--generate-manual`
// writes them and `man -l` shows them: every subcommand, option, value
// list and exit status the help shows is there, with the same words. And
// accessoryd.policy(5), from the schema the policy loader reads its keys
// from: every setting, value and default is there.

import Foundation
import PolicyFiles
import RoutingCore
import TestSupport
import Testing

/// One entry of a help section: its label and its text, on one line.
private struct HelpEntry: Equatable {
  var label: String
  var text: String
}

/// The entries of one section of a help text (`OPTIONS`, `EXIT STATUS`),
/// whose texts start at `column`, as the help lays them out.
private func entries(
  _ section: String, in help: String, column: Int = 26
) -> [HelpEntry] {
  guard let start = help.range(of: section + ":\n") else { return [] }
  var result: [HelpEntry] = []
  for line in help[start.upperBound...].split(
    separator: "\n", omittingEmptySubsequences: false
  ).prefix(while: { !$0.isEmpty }) {
    let characters = Array(line)
    if line.hasPrefix("   "), !result.isEmpty {
      result[result.count - 1].text = collapsed(
        result[result.count - 1].text + " " + line)
    } else if characters.count > column, characters[column - 1] == " " {
      result.append(
        HelpEntry(
          label: collapsed(String(characters[..<column])),
          text: collapsed(String(characters[column...]))))
    } else {
      result.append(HelpEntry(label: collapsed(line), text: ""))
    }
  }
  return result
}

/// Text with every run of blanks made one space, without ends.
private func collapsed(_ text: some StringProtocol) -> String {
  text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    .joined(separator: " ")
}

/// Renders a page with man-db, as a person reads it, on one long line
/// per paragraph so that no word is hyphenated.
private func rendered(_ page: String, name: String) async throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("\(name)-\(getpid()).man").path
  try page.write(toFile: path, atomically: true, encoding: .utf8)
  defer { try? FileManager.default.removeItem(atPath: path) }
  let result = try await runProgram(
    "/usr/bin/man", ["-l", "-P", "cat", path],
    environment: [
      "PATH": "/usr/bin:/bin", "LC_ALL": "C", "MANWIDTH": "1000",
      "MAN_KEEP_FORMATTING": "",
    ])
  #expect(result.status == 0, "\(result)")
  #expect(result.stderr.isEmpty, "man warned: \(result.stderr)")
  return result.stdout
}

/// Runs a built product and returns its standard output.
private func output(
  of product: String, _ arguments: [String]
) async throws
  -> String
{
  let result = try await runProgram(
    try builtProduct(product).path, arguments,
    environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
  #expect(result.status == 0, "\(result)")
  return result.stdout
}

@Suite("Manual pages")
struct ManualPageTests {
  @Test("acctl(1) holds every subcommand and option of acctl's help")
  func acctlPage() async throws {
    let page = collapsed(
      try await rendered(
        try await output(of: "acctl", ["--generate-manual"]), name: "acctl"))
    #expect(page.hasPrefix("ACCTL(1)"), "\(page.prefix(200))")
    #expect(
      page.contains(
        "NAME acctl - Control accessoryd, the automatic audio output switcher"))
    let rootHelp = try await output(of: "acctl", ["--help"])
    for status in entries("EXIT STATUS", in: rootHelp, column: 6) {
      #expect(page.contains("\(status.label) \(status.text)"), "\(status)")
    }
    var commands = entries("SUBCOMMANDS", in: rootHelp).map { [$0.label] }
    commands.append(["policy", "check"])
    commands.append(["policy", "show"])
    for command in commands {
      let help = try await output(of: "acctl", command + ["--help"])
      let abstract = collapsed(
        help.split(separator: "\n\n")[0].dropFirst("OVERVIEW: ".count))
      #expect(page.contains(abstract), "\(command): \(abstract)")
      for option in entries("OPTIONS", in: help)
      where option.label != "-h, --help" {
        // The help writes `--name <value>`; the page `--name value`.
        let label = option.label.replacing("<", with: "").replacing(
          ">", with: "")
        #expect(
          page.contains("\(label) \(option.text)"), "\(command): \(option)")
      }
    }
  }

  @Test("accessoryd(8) holds every option and exit status of its help")
  func accessorydPage() async throws {
    let page = collapsed(
      try await rendered(
        try await output(of: "accessoryd", ["--generate-manual"]),
        name: "accessoryd"))
    #expect(page.hasPrefix("ACCESSORYD(8)"), "\(page.prefix(200))")
    let help = try await output(of: "accessoryd", ["--help"])
    let options = entries("OPTIONS", in: help)
    #expect(options.count == 11, "\(options)")
    for option in options where option.label != "-h, --help" {
      let label = option.label.replacing("<", with: "").replacing(">", with: "")
      #expect(page.contains("\(label) \(option.text)"), "\(option)")
    }
    let statuses = entries("EXIT STATUS", in: help, column: 6)
    #expect(
      statuses.map(\.label) == ["0", "1", "64", "65", "73", "75", "78", "143"])
    for status in statuses {
      #expect(page.contains("\(status.label) \(status.text)"), "\(status)")
    }
    for section in ["HEADPHONES", "ENVIRONMENT", "FILES", "SEE ALSO"] {
      #expect(page.contains(section))
    }
  }

  @Test("accessoryd.policy(5) holds every setting, value and default")
  func policyPage() async throws {
    let page = collapsed(
      try await rendered(
        try await output(of: "accessoryd", ["--generate-policy-manual"]),
        name: "accessoryd.policy"))
    #expect(page.hasPrefix("ACCESSORYD.POLICY(5)"), "\(page.prefix(200))")
    // Markdown's code marks are left out of the page.
    func plain(_ text: String) -> String { text.replacing("`", with: "") }
    #expect(PolicySchema.settings.count == 39)
    for setting in PolicySchema.settings {
      let meaning = plain(setting.meaning)
      #expect(
        page.contains(
          "\(setting.key) \(meaning.prefix(1).uppercased())"
            + "\(meaning.dropFirst()). Type: \(plain(setting.typeText))"),
        "\(setting.key)")
      #expect(
        page.contains(
          setting.isRequired
            ? "\(plain(setting.valuesText)). Required."
            : "Default: \(setting.defaultValue)"), "\(setting.key)")
      if case .choice(let values) = setting.kind {
        for value in values {
          #expect(
            page.contains("\"\(value.value)\": \(plain(value.meaning))"),
            "\(setting.key): \(value.value)")
        }
      }
    }
    for field in PolicySchema.outputMatchFields {
      #expect(page.contains(field.key + " "), "\(field.key)")
    }
    // The example is the built-in default policy, which loads.
    #expect(page.contains(collapsed(Policy.defaultPolicyText)))
    for section in ["SYNOPSIS", "SETTINGS", "OUTPUT MATCHES", "FILES"] {
      #expect(page.contains(section))
    }
  }
}
