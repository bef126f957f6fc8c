// accessoryd's config file: the JSON5 reader and the settings' schema.

import AccessoryEngine
import DaemonControl
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import HeadphoneReaders

extension FuzzTarget {
  /// A config file.
  static let configuration = FuzzTarget(
    name: "configuration",
    summary: "accessoryd's config file: JSON5 and the settings schema"
  ) { bytes in
    do throws(DaemonConfiguration.UsageError) {
      _ = try DaemonConfiguration.FileSettings.decode(
        Data(bytes), path: "accessoryd.json5")
    } catch {
      // Bytes, not characters: a key of combining marks makes one
      // character of the space before it.
      guard error.description.utf8.starts(with: "accessoryd.json5: ".utf8)
      else {
        return "a refusal that does not name the file: \(error.description)"
      }
      guard error.exitStatus == .configuration else {
        return "a config file refusal with exit status \(error.exitStatus)"
      }
    }
    return nil
  }
}
