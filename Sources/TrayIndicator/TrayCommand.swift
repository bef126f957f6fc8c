// accessoryd-tray's command line: no options beyond help, version and its
// manual page; it runs until Quit is clicked or the session ends.

import AccessoryControl
import CommandLineKit
import DBus
import Logging

/// The tray's command: accessoryd-tray(1).
package enum TrayCommand: CommandDescription {
  /// Its name, help and manual.
  package static let configuration = CommandConfiguration(
    commandName: "accessoryd-tray",
    abstract:
      "Show the headphones, their battery and the audio's output in the tray.",
    discussion: """
      accessoryd-tray is accessoryd's tray indicator: a StatusNotifierItem \
      with a dbusmenu menu, as KDE Plasma, Xfce's status tray, waybar and \
      GNOME with the AppIndicator extension show them. It reads \
      accessoryd(8) through its session D-Bus API (io.github.accessoryd) and \
      never starts it. The icon shows the headphones that play: worn, taken \
      off, charging, or none connected; the tooltip gives the output and \
      each bud's battery. The menu chooses the output (Automatic lets \
      accessoryd choose again), says why the audio is where it is, and turns \
      pausing when the headphones are taken off on and off \
      (media.pauseWhenTakenOff, kept over restarts). The package starts it \
      at login through /etc/xdg/autostart/accessoryd-tray.desktop.
      """,
    version: ProjectVersion.line,
    exitStatuses: [
      ExitStatusMeaning(
        0, "Quit was clicked, or another accessoryd-tray runs in the session"),
      ExitStatusMeaning(64, "an option it does not take"),
      ExitStatusMeaning(
        69,
        "no session bus (DBUS_SESSION_BUS_ADDRESS not set, or not reachable), "
          + "or the session bus went away"),
    ],
    manualSection: 1,
    manualSections: [
      ManualSection(
        "ENVIRONMENT",
        entries: [
          .init(
            "DBUS_SESSION_BUS_ADDRESS",
            "The session bus, where the panel and accessoryd are."),
          .init(
            "ACCESSORYD_ICON_THEME_PATH",
            "A directory of icons (hicolor/scalable/status/...) the panel "
              + "is told to look in, for a tray run from a build rather than "
              + "the package."),
        ]),
      ManualSection(
        "FILES",
        entries: [
          .init(
            "/etc/xdg/autostart/accessoryd-tray.desktop",
            "Starts it at login. To turn the tray off, copy it to "
              + "~/.config/autostart/ and add Hidden=true."),
          .init(
            "/usr/share/icons/hicolor/scalable/status/accessoryd-headphones*.svg",
            "Its icons."),
        ]),
      ManualSection(
        "SEE ALSO",
        paragraphs: ["accessoryd(8), acctl(1), accessoryd.policy(5)"]),
    ])

  /// Runs the tray with the process's arguments.
  ///
  /// - Returns: The exit status.
  package static func main(arguments: [String]) async -> Int32 {
    for argument in arguments {
      switch argument {
      case "-h", "--help":
        print(helpText())
        return 0
      case "--version":
        print(ProjectVersion.line)
        return 0
      case ManualPage.generateOption:
        print(ManualPage(root: Self.self).text, terminator: "")
        return 0
      default:
        StandardErrorLogHandler.write(
          "Error: accessoryd-tray takes no argument '\(argument)'; expected "
            + "--help or --version\nUsage: \(usageText())\n")
        return 64
      }
    }
    let logger = Logger(
      label: "accessoryd-tray", handler: StandardErrorLogHandler(),
      logLevel: .info)
    guard let address = environmentVariable("DBUS_SESSION_BUS_ADDRESS"),
      !address.isEmpty
    else {
      StandardErrorLogHandler.write(
        "Error: DBUS_SESSION_BUS_ADDRESS is not set: the tray needs the "
          + "desktop's session bus\n")
      return 69
    }
    let service = TrayService(
      address: address,
      iconThemePath: environmentVariable("ACCESSORYD_ICON_THEME_PATH") ?? "",
      logger: logger)
    switch await service.run() {
    case .quit:
      return 0
    case .busLost:
      logger.notice("The session bus went away")
      return 69
    case .alreadyRunning:
      logger.notice(
        "Another accessoryd-tray shows the icon in this session; this one ends")
      return 0
    case .unusable(let reason):
      StandardErrorLogHandler.write(
        "Error: the session bus cannot be used: \(reason)\n")
      return 69
    }
  }

}
