// The manual page accessoryd.policy(5), written from the policy schema that
// the loader reads its keys from: every setting, its type, its values and
// its default, then the built-in default policy as the example.

import AccessoryControl
import CommandLineKit
import RoutingCore

/// The manual page of the policy format, accessoryd.policy(5), which
/// `accessoryd --generate-policy-manual` prints.
public enum PolicyManual {
  /// The page in man(7) markup.
  public static var text: String {
    ManualPage(
      name: "accessoryd.policy", section: 5,
      abstract: "how accessoryd decides where sound goes",
      footer: ProjectVersion.line,
      sections: [
        ManualSection(
          "SYNOPSIS",
          paragraphs: [
            "$XDG_CONFIG_HOME/accessoryd/policy.json5",
            "accessoryd --policy FILE",
          ]),
        ManualSection(
          "DESCRIPTION",
          paragraphs: [
            "A policy tunes the decision rules of accessoryd(8). It is a "
              + "JSON5 file: comments, unquoted keys and trailing commas "
              + "are allowed. Every key is checked when the policy is "
              + "loaded: an unknown key, a value of the wrong type or out "
              + "of range, a key given twice or a syntax error is refused "
              + "with a message that names the key path (or the line and "
              + "column) and what is allowed. The daemon then keeps the "
              + "policy it had; at start it exits with status 78.",
            "acctl policy check FILE loads a file the same way without the "
              + "daemon; acctl policy show prints the policy in use; SIGHUP "
              + "(systemctl --user reload accessoryd) loads it again.",
            "Only version is required; every other setting has the default "
              + "given below. Without a policy file the built-in default "
              + "policy, shown under EXAMPLE, is used.",
          ]),
        ManualSection(
          "SETTINGS",
          paragraphs: [
            "Each key path names an object and a key in it: "
              + "placement.offHeadGraceSeconds is the key "
              + "offHeadGraceSeconds in the object placement."
          ],
          entries: PolicySchema.settings.map { setting in
            .init(setting.key, entryText(setting))
          }),
        ManualSection(
          "OUTPUT MATCHES",
          paragraphs: [
            "An output match is an object with at least one of these keys; "
              + "all that are given must hold. Text is compared ignoring "
              + "case; * matches any run of characters and ? any one "
              + "character."
          ],
          entries: PolicySchema.outputMatchFields.map {
            .init($0.key, sentence($0.meaning))
          }),
        ManualSection(
          "EXPLAINING A DECISION",
          paragraphs: [
            "acctl route --explain shows every rule of the decision in "
              + "order, with its candidates and the settings it used: the "
              + "outputs, each accessory's eligibility, card profiles, the "
              + "manual choice, the accessory chosen, the grace times, the "
              + "fallback output and the streams."
          ]),
        ManualSection(
          "FILES",
          entries: [
            .init(
              "$XDG_CONFIG_HOME/accessoryd/policy.json5",
              "The policy accessoryd uses when --policy and the config "
                + "file name none."),
            .init(
              "/usr/share/accessoryd/policies/",
              "The shipped policies, to copy and change: default.json5, "
                + "manual-first.json5, placement-only.json5 and "
                + "multipoint-shared.json5."),
          ]),
        ManualSection(
          "EXAMPLE",
          paragraphs: ["The built-in default policy:"],
          example: Policy.defaultPolicyText.trimmingTrailingNewlines),
        ManualSection(
          "SEE ALSO", paragraphs: ["accessoryd(8), acctl(1)"]),
      ]
    ).text
  }

  /// What a setting does, then its type, values and default.
  private static func entryText(_ setting: PolicySetting) -> String {
    var text = sentence(setting.meaning) + " "
    text += "Type: \(plain(setting.typeText))"
    let values = setting.valuesText
    if !values.isEmpty { text += "; values: \(plain(values))" }
    if setting.isRequired { return text + ". Required." }
    text += ". Default: \(plain(setting.defaultValue))"
    if let note = setting.defaultNote { text += " (\(note))" }
    return text + "."
  }

  /// Text as a sentence: a capital first, a period last.
  private static func sentence(_ text: String) -> String {
    plain(text.prefix(1).uppercased() + text.dropFirst()) + "."
  }

  /// Markdown's code marks taken out, for roff.
  private static func plain(_ text: String) -> String {
    text.replacing("`", with: "")
  }
}

extension String {
  fileprivate var trimmingTrailingNewlines: String {
    var text = self
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
