// The link runs in the daemon's ServiceGroup like every long-running part.

import DaemonLifecycle

extension SoundServerLink: Service {
  /// The service's name, for logs.
  public nonisolated var name: String { "sound-server-link" }
}
