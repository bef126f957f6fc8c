// The README and the manual in docs/: the README stays a front door (at
// most 10 KB, linking every page of the manual), every relative link and
// anchor between the pages resolves, and troubleshooting has a section for
// each check acctl doctor makes.

import Foundation
import TestSupport
import Testing

/// The repository's root.
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The project's own Markdown files: every `.md` file outside the build's
/// and git's directories.
private func markdownFiles() throws -> [URL] {
  let skipped: Set<String> = [".build", ".git", ".swiftpm"]
  var files: [URL] = []
  let enumerator = try #require(
    FileManager.default.enumerator(
      at: root, includingPropertiesForKeys: [.isDirectoryKey]))
  for case let url as URL in enumerator {
    if skipped.contains(url.lastPathComponent) {
      enumerator.skipDescendants()
    } else if url.pathExtension == "md" {
      files.append(url)
    }
  }
  return files.sorted { $0.path < $1.path }
}

/// The lines of a Markdown text outside fenced code blocks.
private func proseLines(_ text: String) -> [Substring] {
  var inCode = false
  return text.split(separator: "\n", omittingEmptySubsequences: false)
    .filter { line in
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        inCode.toggle()
        return false
      }
      return !inCode
    }
}

/// The anchors GitHub gives a Markdown text's headings: lower case,
/// punctuation but `-` and `_` dropped, spaces as `-`, and `-1`, `-2` on
/// repeats.
private func anchors(_ text: String) -> Set<String> {
  var seen: [String: Int] = [:]
  var result: Set<String> = []
  for line in proseLines(text) where line.hasPrefix("#") {
    let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
    let slug = String(
      title.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        if character.isLetter || character.isNumber || character == "-"
          || character == "_"
        {
          return character
        }
        return nil
      })
    let count = seen[slug, default: 0]
    seen[slug] = count + 1
    result.insert(count == 0 ? slug : "\(slug)-\(count)")
  }
  return result
}

/// The targets of a Markdown text's inline links, `[text](target)`,
/// outside code.
private func linkTargets(_ text: String) -> [String] {
  var targets: [String] = []
  for line in proseLines(text) {
    // Inline code spans hold examples, not links.
    let prose = line.split(separator: "`", omittingEmptySubsequences: false)
      .enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
      .joined(separator: " ")
    var rest = prose[...]
    while let open = rest.range(of: "](") {
      let after = rest[open.upperBound...]
      guard let close = after.firstIndex(of: ")") else { break }
      targets.append(String(after[..<close]))
      rest = after[close...]
    }
  }
  return targets
}

@Suite("The README and the manual")
struct ManualTests {
  @Test("The README is a front door: at most 10 KB, linking every page")
  func readmeIsAFrontDoor() throws {
    let readme = root.appendingPathComponent("README.md")
    let size = try Data(contentsOf: readme).count
    #expect(size <= 10 * 1024, "README.md is \(size) bytes")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let pages = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("docs").path
    ).filter { $0.hasSuffix(".md") }
    #expect(pages.count >= 8, "\(pages)")
    for page in pages {
      #expect(text.contains("(docs/\(page)"), "README.md does not link \(page)")
    }
  }

  @Test("Every relative link and anchor between the pages resolves")
  func linksResolve() throws {
    let files = try markdownFiles()
    #expect(files.count >= 10, "\(files)")
    var checked = 0
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      let name = String(file.path.dropFirst(root.path.count + 1))
      for target in linkTargets(text) {
        if target.contains("://") || target.hasPrefix("mailto:") { continue }
        let parts = target.split(
          separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let destination =
          path.isEmpty
          ? file
          : file.deletingLastPathComponent().appendingPathComponent(path)
            .standardizedFileURL
        checked += 1
        guard FileManager.default.fileExists(atPath: destination.path) else {
          Issue.record("\(name): the link '\(target)' leads nowhere")
          continue
        }
        if parts.count == 2, destination.pathExtension == "md" {
          let anchor = String(parts[1])
          let known = anchors(
            try String(contentsOf: destination, encoding: .utf8))
          #expect(
            known.contains(anchor),
            "\(name): the link '\(target)' names no heading of its page")
        }
      }
    }
    #expect(checked >= 50, "only \(checked) relative links were found")
  }

  @Test("Troubleshooting has a section for each check of acctl doctor")
  func troubleshootingCoversTheDoctor() async throws {
    let result = try await runProgram(
      try builtProduct("acctl").path,
      ["doctor", "--json", "--socket", "/nonexistent/accessoryd.sock"],
      environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
    let report =
      try JSONSerialization.jsonObject(
        with: Data(result.stdout.utf8)) as? [String: Any]
    let checks = try #require(report?["checks"] as? [[String: Any]])
      .compactMap { $0["check"] as? String }
    #expect(checks.count >= 8, "\(result)")
    let headings = proseLines(
      try String(
        contentsOf: root.appendingPathComponent("docs/troubleshooting.md"),
        encoding: .utf8)
    ).filter { $0.hasPrefix("## ") }.map { $0.dropFirst(3) }
    for check in checks {
      #expect(
        headings.contains { $0 == check || $0.hasPrefix(check + ":") },
        "docs/troubleshooting.md has no section '## \(check)'")
    }
  }
}
