// What the tray shows for a reading, and its menu as dbusmenu carries it:
// pure, without a bus or a panel.

import DBus
import SessionBusInterfaces
import Testing
import TrayIndicator

private let buds = TrayReading.Accessory(
  address: "AA:BB:CC:DD:EE:01", name: "Studio Buds", placement: "inEar",
  output: "buds",
  battery: [
    BatteryPart(part: "case", percent: 40, isCharging: true),
    BatteryPart(part: "right", percent: 75, isCharging: false),
    BatteryPart(part: "left", percent: 80, isCharging: false),
  ])

private let outputs = [
  TrayReading.Output(name: "speaker", description: "Built-in Speaker"),
  TrayReading.Output(name: "buds", description: "Studio Buds"),
  TrayReading.Output(
    name: "hdmi", description: "HDMI", isAvailable: false),
]

private func reading(
  _ accessories: [TrayReading.Accessory], output: String = "buds",
  outputs: [TrayReading.Output] = outputs
) -> TrayReading {
  TrayReading(
    output: output,
    outputDescription: outputs.first { $0.name == output }?.description ?? "",
    accessories: accessories, outputs: outputs,
    explanation: ["Output buds (Studio Buds): worn", "1. worn: buds"])
}

@Suite("The tray's presentation")
struct TrayPresentationTests {
  @Test("The icon follows the headphones that play")
  func icons() {
    var off = buds
    off.placement = "offHead"
    var charging = off
    charging.battery[1].isCharging = true
    var unknown = buds
    unknown.placement = ""
    var gone = buds
    gone.output = ""
    #expect(TrayPresentation.view(of: reading([buds])).icon == .worn)
    #expect(TrayPresentation.view(of: reading([off])).icon == .off)
    #expect(TrayPresentation.view(of: reading([charging])).icon == .charging)
    #expect(TrayPresentation.view(of: reading([unknown])).icon == .worn)
    #expect(TrayPresentation.view(of: reading([gone])).icon == .none)
    #expect(TrayPresentation.view(of: reading([])).icon == .none)
    #expect(TrayPresentation.view(of: .daemonNotRunning).icon == .none)
    // The case charging while the buds are worn: still worn.
    #expect(TrayPresentation.view(of: reading([buds])).icon == .worn)
  }

  @Test("The icon is about the headphones the audio is on")
  func mainHeadphones() {
    var phones = TrayReading.Accessory(
      address: "AA:BB:CC:DD:EE:02", name: "Travel Phones", placement: "offHead",
      output: "phones")
    phones.isRegistered = true
    let onPhones = reading([buds, phones], output: "phones")
    #expect(TrayPresentation.view(of: onPhones).icon == .off)
    #expect(TrayPresentation.view(of: onPhones).tooltipTitle == "Travel Phones")
    // On the speaker: the first registered headphones connected.
    let onSpeaker = reading([phones, buds], output: "speaker")
    #expect(
      TrayPresentation.view(of: onSpeaker).tooltipTitle == "Travel Phones")
  }

  @Test("The tooltip gives the output and each bud's battery")
  func tooltip() {
    let view = TrayPresentation.view(of: reading([buds]))
    #expect(view.tooltipTitle == "Studio Buds")
    #expect(
      view.tooltipText == """
        Audio on Studio Buds
        Studio Buds: in ear · Left 80% · Right 75% · Case 40% (charging)
        """)
    let stopped = TrayPresentation.view(of: .daemonNotRunning)
    #expect(stopped.tooltipTitle == "accessoryd is not running")
    #expect(
      stopped.menu.map(\.label) == ["accessoryd is not running", "", "Quit"])
  }

  @Test("The menu: headphones, outputs, why, pause-on-removal, quit")
  func menu() throws {
    let menu = TrayPresentation.view(of: reading([buds])).menu
    #expect(
      menu.map(\.label) == [
        "Studio Buds: in ear · Left 80% · Right 75% · Case 40% (charging)", "",
        "Output", "Why the audio is here", "", "Pause when taken off", "",
        "Quit",
      ])
    #expect(menu[0].action == nil && !menu[0].isEnabled)
    let output = try #require(menu.first { $0.key == "outputs" })
    // Unavailable outputs are left out; accessoryd chooses: Automatic.
    #expect(
      output.children.map(\.label) == [
        "Automatic (now Studio Buds)", "Built-in Speaker", "Studio Buds",
      ])
    #expect(
      output.children.map(\.toggle) == [
        .radio(true), .radio(false), .radio(false),
      ])
    #expect(output.children[0].action == .forgetOutputChoices)
    #expect(output.children[1].action == .chooseOutput("speaker"))
    let why = try #require(menu.first { $0.key == "why" })
    #expect(
      why.children.map(\.label) == [
        "Output buds (Studio Buds): worn", "1. worn: buds",
      ])
    #expect(why.children.allSatisfy { !$0.isEnabled })
    let pause = try #require(menu.first { $0.key == "pause-when-taken-off" })
    #expect(pause.toggle == .checkmark(true))
    #expect(pause.action == .setPauseWhenTakenOff(false))
    #expect(menu.last?.action == .quit)
  }

  @Test("The person's choice is the ticked output; the switch off is unticked")
  func chosen() throws {
    var chosen = outputs
    chosen[0].isPersonsChoice = true
    var choice = reading([buds], output: "speaker", outputs: chosen)
    choice.pausesWhenTakenOff = false
    let menu = TrayPresentation.view(of: choice).menu
    let output = try #require(menu.first { $0.key == "outputs" })
    #expect(
      output.children.map(\.toggle) == [
        .radio(false), .radio(true), .radio(false),
      ])
    let pause = try #require(menu.first { $0.key == "pause-when-taken-off" })
    #expect(pause.toggle == .checkmark(false))
    #expect(pause.action == .setPauseWhenTakenOff(true))
    let none = TrayPresentation.view(of: reading([])).menu
    #expect(none.first?.label == "No headphones connected")
  }
}

@Suite("The tray's menu on dbusmenu")
struct DBusMenuLayoutTests {
  @Test("Ids stay with their items; the revision grows only on a change")
  func ids() {
    var layout = DBusMenuLayout()
    let first = TrayPresentation.view(of: reading([buds])).menu
    let changed = layout.replace(with: first)
    #expect(changed)
    let revision = layout.revision
    let pause = layout.currentID(of: "pause-when-taken-off")
    let again = layout.replace(with: first)
    #expect(!again)
    #expect(layout.revision == revision)
    var off = buds
    off.placement = "offHead"
    let takenOff = layout.replace(
      with: TrayPresentation.view(of: reading([off])).menu)
    #expect(takenOff)
    #expect(layout.revision == revision + 1)
    #expect(layout.currentID(of: "pause-when-taken-off") == pause)
    // Gone items have no id now; they get theirs back when they return.
    let headphones = layout.currentID(of: "headphones AA:BB:CC:DD:EE:01")
    let empty = layout.replace(
      with: TrayPresentation.view(of: reading([])).menu)
    #expect(empty)
    #expect(layout.currentID(of: "headphones AA:BB:CC:DD:EE:01") == nil)
    layout.replace(with: first)
    #expect(layout.currentID(of: "headphones AA:BB:CC:DD:EE:01") == headphones)
  }

  @Test("Items' properties as dbusmenu names them")
  func properties() throws {
    var layout = DBusMenuLayout()
    layout.replace(
      with: [
        .item("a", "Built_in", toggle: .radio(true), action: .quit),
        .separator("s"),
        .item("p", "Pause", toggle: .checkmark(false), action: .quit),
        .submenu("m", "More", [.item("x", "Line")]),
      ])
    let radio = try #require(layout.currentID(of: "a"))
    #expect(
      layout.properties(of: radio) == [
        "label": .string("Built__in"), "enabled": .boolean(true),
        "toggle-type": .string("radio"), "toggle-state": .int32(1),
      ])
    #expect(
      layout.properties(of: try #require(layout.currentID(of: "s")))
        == ["type": .string("separator")])
    #expect(
      layout.properties(
        of: try #require(layout.currentID(of: "p")), named: ["toggle-state"])
        == ["toggle-state": .int32(0)])
    let more = try #require(layout.currentID(of: "m"))
    #expect(
      layout.properties(of: more)["children-display"] == .string("submenu"))
    #expect(
      layout.properties(of: DBusMenuLayout.rootID) == [
        "children-display": .string("submenu")
      ])
  }

  @Test("The layout to a depth: the item alone, its children, or all")
  func depth() throws {
    var layout = DBusMenuLayout()
    layout.replace(with: [.submenu("m", "More", [.item("x", "Line")])])
    func children(_ value: DBusValue) -> [DBusValue] {
      guard case .structure(let fields) = value.unwrapped else { return [] }
      return fields[2].array ?? []
    }
    let all = layout.layout(of: DBusMenuLayout.rootID, depth: -1)
    #expect(children(all).count == 1)
    #expect(children(try #require(children(all).first)).count == 1)
    let one = layout.layout(of: DBusMenuLayout.rootID, depth: 1)
    #expect(children(try #require(children(one).first)).isEmpty)
    #expect(
      children(layout.layout(of: DBusMenuLayout.rootID, depth: 0)).isEmpty)
    #expect(layout.contains(try #require(layout.currentID(of: "x"))))
    #expect(!layout.contains(99))
  }
}
