// acctl's entry point: the commands are in AcctlCommands.

import AcctlCommands

@main
enum AcctlMain {
  static func main() async {
    await Acctl.main()
  }
}
