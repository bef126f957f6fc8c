// Reading the process environment without Foundation.

import Glibc

/// Returns the value of an environment variable, or nil if it is unset.
package func environmentVariable(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}
