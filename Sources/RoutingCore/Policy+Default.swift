// The default policy, built in so that the daemon runs without a policy
// file. It is the text of policies/default.json5, byte for byte; a test
// keeps the two equal.

extension Policy {
  /// The text of the default policy, `policies/default.json5`.
  public static let defaultPolicyText = #"""
    // The default policy: worn accessories take the output, taking one off gives
    // the output back, the person's own choice holds until an accessory changes,
    // and displays are used only when nothing else exists.
    {
      version: 1,
      description: "Follow placement and connections; respect manual choices until an accessory changes",

      placement: {
        // An accessory with the placement capability that has not reported a
        // placement yet may take the output.
        eligibleWhenUnknown: true,
        // Taken off and put back on within this time: no switch.
        offHeadGraceSeconds: 3,
        // Earbuds accessoryd reads itself (AirPods, Galaxy Buds) are worn when
        // "either" bud is in the ear, or only when "both" are.
        earbudsWorn: "either",
      },

      connection: {
        // An accessory's output that disappears and comes back within this time
        // (an A2DP <-> headset profile switch) is not a disconnect.
        reappearGraceSeconds: 5,
        // Headphones' output gone while BlueZ does not say whether they are
        // still connected: waited for this long as a profile switch, then
        // their players pause. BlueZ's word that they disconnected, or a
        // jack pulled, pauses at once.
        profileSwitchSeconds: 0.3,
        // A just-registered accessory that has yet to report its placement (or,
        // for audio switching, its audio sources) waits this long for the report
        // before it takes the output, so register-then-offHead never flaps.
        firstReportWaitSeconds: 1,
        // While worn headphones have the output, a device that connects (a
        // speaker, a car kit, headphones not put on) does not take it.
        keepAudioWithHeadphones: true,
        // Headphones nobody registered (a Bluetooth headset, wired headphones
        // in the jack) take the output when they connect, as a registered
        // accessory that reports no placement does.
        followUnregisteredHeadphones: true,
      },

      multipoint: {
        // This host is only the secondary audio source: leave the accessory to
        // the primary host.
        takeWhenSecondary: false,
      },

      manualChoice: {
        respect: "untilAccessoryChange",
        holdSeconds: 0,
      },

      accessories: {
        requirePlacement: false,
        whenTakenOff: "previous",
      },

      streams: {
        follow: true,
        roles: [
          // Calls go to a headset when one is there and may play.
          {
            role: "phone",
            outputs: [
              { properties: { "device.form_factor": "headset" } },
              { properties: { "device.form_factor": "hands-free" } },
            ],
          },
        ],
      },

      outputs: {
        // Displays: HDMI, DisplayPort, televisions and monitors.
        exclude: [
          { name: "*hdmi*" },
          { activePort: "*hdmi*" },
          { name: "*displayport*" },
          { activePort: "*displayport*" },
          { properties: { "device.form_factor": "tv" } },
          { properties: { "device.form_factor": "monitor" } },
        ],
        priorities: [
          { match: { properties: { "device.bus": "usb" } }, priority: 60 },
          { match: { properties: { "device.form_factor": "internal" } }, priority: 50 },
          { match: { properties: { "device.bus": "pci" } }, priority: 40 },
        ],
      },

      media: {
        // Taking off the headphones that play pauses what plays on them at once,
        // before the output changes; putting them back on within this time
        // resumes exactly what was paused (0: never).
        pauseWhenTakenOff: true,
        resumeWhenPutBackWithinSeconds: 60,
        // A stream no player can pause (a game, pacat) is muted instead of
        // moving to the speakers audibly, and unmuted when put back on.
        whenUnpausable: "mute",
        // The headphones' output gone for good (past the reappear grace time):
        // pause what played on them; resume it when they connect again only if
        // resumeOnReconnect is true. While the output is expected back (a profile
        // switch), the streams the server moved elsewhere are muted.
        pauseWhenDisconnected: true,
        resumeOnReconnect: false,
        // With resumeOnReconnect, they resume once the headphones have been back
        // this long: a link that drops again and again pauses them once.
        reconnectSettleSeconds: 2,
        // Headphones nobody registered (a Bluetooth headset paired in the
        // desktop's settings) are guarded the same way when they go away.
        guardUnregisteredHeadphones: true,
      },

      profiles: {
        activateOutputProfile: true,
      },

      desktop: {
        // The session D-Bus API (io.github.accessoryd) that applets and the
        // tray read; false releases the name.
        sessionBusAPI: true,
        // The battery read from AirPods and Galaxy Buds, given to BlueZ for
        // GNOME, KDE and upower (BlueZ 5.66: bluetoothd --experimental).
        batteryToBlueZ: true,
      },

      notifications: {
        // Desktop notifications: headphones connected (with their battery),
        // media paused because they came off, the audio moved because its
        // output went away.
        connected: true,
        pausedWhenTakenOff: true,
        unexpectedOutput: true,
      },
    }

    """#
}
