// The objects one connection serves, with their interfaces and properties:
// it answers Introspect, the Properties interface and, at its root, the
// ObjectManager interface from what was added, sends PropertiesChanged
// when a value changes, and hands every other method to its interface's
// implementation.

import ConcurrencyHelpers

/// Carries out a method of a served interface; its result is the reply.
package typealias DBusMethodImplementation =
  @Sendable (DBusIncomingCall) async -> Result<[DBusValue], DBusFailure>

/// Changes a writable property: its name and the new value, unwrapped.
package typealias DBusPropertySetter =
  @Sendable (String, DBusValue) async -> Result<Void, DBusFailure>

/// Objects served on one connection.
package final class DBusObjectTree: Sendable {
  /// One interface of one object.
  struct Served: Sendable {
    var interface: DBusInterface
    var values: [String: DBusValue]
    var implementation: DBusMethodImplementation?
    var setter: DBusPropertySetter?
  }

  /// The connection the objects are served on.
  package let driver: DBusConnectionDriver
  /// Where `org.freedesktop.DBus.ObjectManager` is served, each for the
  /// objects below it.
  private let managerPaths: Mutex<Set<String>>
  private let objects = Mutex<[String: [String: Served]]>([:])

  private init(driver: DBusConnectionDriver, managerPath: String?) {
    self.driver = driver
    self.managerPaths = Mutex(managerPath.map { [$0] } ?? [])
  }

  /// Serves `org.freedesktop.DBus.ObjectManager` at a path too, for the
  /// objects below it.
  package func addManager(at path: String) {
    managerPaths.withLock { _ = $0.insert(path) }
  }

  /// The manager an object is announced by: the nearest above it.
  private func manager(of path: String) -> String? {
    managerPaths.withLock { paths in
      paths.filter { isBelow(path, $0) }.max { $0.count < $1.count }
    }
  }

  /// Serves a tree on a connection: every method call on a path the
  /// connection does not `export` comes to it.
  ///
  /// - Returns: Nil if the connection has ended.
  package static func serve(
    on driver: DBusConnectionDriver, managerPath: String? = nil
  ) async -> DBusObjectTree? {
    let tree = DBusObjectTree(driver: driver, managerPath: managerPath)
    guard
      await driver.serveTree({ [weak tree] call, reply in
        guard let tree else {
          return reply.fail(Self.unknownObject(call.path))
        }
        tree.handle(call, reply: reply)
      })
    else { return nil }
    return tree
  }

  // MARK: - Objects

  /// Adds an interface to an object, or replaces it, and says so with
  /// `InterfacesAdded` when a manager serves the object; an object path
  /// that is not valid is left out.
  ///
  /// - Parameters:
  ///   - values: Every property's value, by name, of the property's type.
  ///   - implementation: Carries out the interface's methods.
  ///   - setter: Changes its writable properties.
  package func add(
    _ interface: DBusInterface, at path: String,
    values: [String: DBusValue],
    implementation: DBusMethodImplementation? = nil,
    setter: DBusPropertySetter? = nil
  ) async {
    guard isValidObjectPath(path) else { return }
    objects.withLock { objects in
      objects[path, default: [:]][interface.name] = Served(
        interface: interface, values: values, implementation: implementation,
        setter: setter)
    }
    guard let managerPath = manager(of: path) else { return }
    await driver.emit(
      path: managerPath, interface: DBusInterface.objectManager.name,
      member: "InterfacesAdded",
      arguments: [
        .objectPath(path),
        .dictionary([.string(interface.name): propertyMap(interface, values)]),
      ], signature: "oa{sa{sv}}")
  }

  /// Removes an object and every interface it had, and says so with
  /// `InterfacesRemoved` when a manager served it.
  package func remove(_ path: String) async {
    let removed = objects.withLock { $0.removeValue(forKey: path) }
    guard let removed, let managerPath = manager(of: path) else { return }
    await driver.emit(
      path: managerPath, interface: DBusInterface.objectManager.name,
      member: "InterfacesRemoved",
      arguments: [
        .objectPath(path),
        .typed(
          signature: "as", .array(removed.keys.sorted().map { .string($0) })),
      ], signature: "oas")
  }

  /// The paths of the objects served.
  package var paths: [String] {
    objects.withLock { Array($0.keys) }.sorted()
  }

  /// A property's value now.
  package func value(
    of property: String, in interface: String, at path: String
  ) -> DBusValue? {
    objects.withLock { $0[path]?[interface]?.values[property] }
  }

  /// Sets properties and sends one `PropertiesChanged` with those whose
  /// value changed.
  ///
  /// - Returns: The names of the properties that changed.
  @discardableResult
  package func update(
    _ values: [String: DBusValue], of interface: String, at path: String
  ) async -> [String] {
    let changed: [String: DBusValue]? = objects.withLock { objects in
      guard var served = objects[path]?[interface] else { return nil }
      var changed: [String: DBusValue] = [:]
      for (name, value) in values where served.values[name] != value {
        served.values[name] = value
        changed[name] = value
      }
      objects[path]?[interface] = served
      return changed
    }
    guard let changed, !changed.isEmpty,
      let description = objects.withLock({ $0[path]?[interface]?.interface })
    else { return [] }
    await driver.emit(
      path: path, interface: DBusInterface.properties.name,
      member: "PropertiesChanged",
      arguments: [
        .string(interface), propertyMap(description, changed),
        .typed(signature: "as", .array([])),
      ], signature: "sa{sv}as")
    return changed.keys.sorted()
  }

  /// Sends a signal of an interface from an object, with the signature
  /// the interface gives it.
  @discardableResult
  package func emit(
    _ signal: String, of interface: DBusInterface, at path: String,
    arguments: [DBusValue]
  ) async -> Bool {
    guard let description = interface.signal(signal) else { return false }
    return await driver.emit(
      path: path, interface: interface.name, member: signal,
      arguments: arguments, signature: description.signature)
  }

  // MARK: - Answering calls

  /// Dispatch thread: answers one method call.
  func handle(_ call: DBusIncomingCall, reply: DBusPendingReply) {
    switch (call.interface, call.member) {
    case (DBusInterface.introspectable.name, "Introspect"),
      ("", "Introspect"):
      reply.send([.string(introspection(of: call.path))], signature: "s")
    case (DBusInterface.properties.name, _):
      answerProperties(call, reply: reply)
    case (DBusInterface.objectManager.name, "GetManagedObjects")
    where managerPaths.withLock({ $0.contains(call.path) }):
      reply.send([managedObjects(below: call.path)], signature: "a{oa{sa{sv}}}")
    default:
      answerMethod(call, reply: reply)
    }
  }

  private func answerMethod(_ call: DBusIncomingCall, reply: DBusPendingReply) {
    let found: (Served, DBusInterface.Method)? = objects.withLock { objects in
      guard let object = objects[call.path] else { return nil }
      let candidates =
        call.interface.isEmpty
        ? Array(object.values) : object[call.interface].map { [$0] } ?? []
      for served in candidates {
        if let method = served.interface.method(call.member) {
          return (served, method)
        }
      }
      return nil
    }
    guard let (served, method) = found,
      let implementation = served.implementation
    else {
      if objects.withLock({ $0[call.path] == nil }) {
        return reply.fail(Self.unknownObject(call.path))
      }
      return reply.fail(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.UnknownMethod",
          message:
            "no method \(call.member) in interface '\(call.interface)' at \(call.path)"
        ))
    }
    guard call.signature == method.inputSignature else {
      return reply.fail(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.InvalidArgs",
          message:
            "\(method.name) takes (\(method.inputSignature)), not "
            + "(\(call.signature))"))
    }
    Task {
      reply.answer(
        await implementation(call), signature: method.outputSignature)
    }
  }

  private func answerProperties(
    _ call: DBusIncomingCall, reply: DBusPendingReply
  ) {
    let expected = ["Get": "ss", "GetAll": "s", "Set": "ssv"][call.member]
    if let expected, call.signature != expected {
      return reply.fail(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.InvalidArgs",
          message:
            "\(call.member) takes (\(expected)), not (\(call.signature))"))
    }
    let arguments = call.arguments.map(\.unwrapped)
    let interfaceName = arguments.first?.string ?? ""
    let served = objects.withLock { $0[call.path]?[interfaceName] }
    guard let served else {
      if objects.withLock({ $0[call.path] == nil }) {
        return reply.fail(Self.unknownObject(call.path))
      }
      return reply.fail(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.UnknownInterface",
          message: "\(call.path) has no interface '\(interfaceName)'"))
    }
    switch call.member {
    case "GetAll":
      reply.send(
        [propertyMap(served.interface, served.values)], signature: "a{sv}")
    case "Get", "Set":
      let name = arguments.count > 1 ? arguments[1].string ?? "" : ""
      guard let property = served.interface.property(name) else {
        return reply.fail(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.UnknownProperty",
            message: "\(interfaceName) has no property '\(name)'"))
      }
      if call.member == "Get" {
        guard let value = served.values[name] else {
          return reply.fail(
            DBusFailure(
              name: "org.freedesktop.DBus.Error.Failed",
              message: "\(name) has no value yet"))
        }
        return reply.send(
          [.variant(.typed(signature: property.signature, value))],
          signature: "v")
      }
      guard property.isWritable, let setter = served.setter else {
        return reply.fail(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.PropertyReadOnly",
            message: "\(interfaceName).\(name) is read-only"))
      }
      guard case .variant(let value) = call.arguments[2],
        value.inferredSignature == property.signature
          || value.fits(Substring(property.signature))
      else {
        return reply.fail(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "\(name) takes a value of type \(property.signature)"))
      }
      Task {
        switch await setter(name, value) {
        case .success: reply.send([], signature: "")
        case .failure(let failure): reply.fail(failure)
        }
      }
    default:
      reply.fail(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.UnknownMethod",
          message:
            "no method \(call.member) in \(DBusInterface.properties.name)"
        ))
    }
  }

  // MARK: - Introspection data

  /// The introspection document of a path: its interfaces, the standard
  /// ones, and the nodes below it.
  package func introspection(of path: String) -> String {
    let (interfaces, children) = objects.withLock { objects in
      let interfaces = objects[path].map { $0.values.map(\.interface) } ?? []
      var children = Set<String>()
      let prefix = path == "/" ? "/" : path + "/"
      for other in objects.keys where other.hasPrefix(prefix) {
        if let first = other.dropFirst(prefix.count).split(separator: "/")
          .first
        {
          children.insert(String(first))
        }
      }
      return (interfaces, children)
    }
    var standard = [DBusInterface.introspectable, DBusInterface.peer]
    if !interfaces.isEmpty { standard.append(DBusInterface.properties) }
    if managerPaths.withLock({ $0.contains(path) }) {
      standard.append(DBusInterface.objectManager)
    }
    var lines = [DBusInterface.doctype, "<node>"]
    for interface in standard + interfaces.sorted(by: { $0.name < $1.name }) {
      lines.append(interface.introspectionElement())
    }
    for child in children.sorted() {
      lines.append("  <node name=\"\(child)\"/>")
    }
    lines.append("</node>")
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: - Encoding

  /// The properties as an `a{sv}`, each variant holding its declared type.
  func propertyMap(
    _ interface: DBusInterface, _ values: [String: DBusValue]
  ) -> DBusValue {
    var entries: [DBusValue: DBusValue] = [:]
    for (name, value) in values {
      guard let property = interface.property(name) else { continue }
      entries[.string(name)] = .variant(
        .typed(signature: property.signature, value))
    }
    return .typed(signature: "a{sv}", .dictionary(entries))
  }

  /// What `GetManagedObjects` answers at a manager's path.
  private func managedObjects(below root: String) -> DBusValue {
    let snapshot = objects.withLock { $0 }
    var result: [DBusValue: DBusValue] = [:]
    for (path, interfaces) in snapshot where isBelow(path, root) {
      var entries: [DBusValue: DBusValue] = [:]
      for (name, served) in interfaces {
        entries[.string(name)] = propertyMap(served.interface, served.values)
      }
      result[.objectPath(path)] = .dictionary(entries)
    }
    return .typed(signature: "a{oa{sa{sv}}}", .dictionary(result))
  }

  private func isBelow(_ path: String, _ root: String) -> Bool {
    root == "/" ? path != "/" : path.hasPrefix(root + "/")
  }

  static func unknownObject(_ path: String) -> DBusFailure {
    DBusFailure(
      name: "org.freedesktop.DBus.Error.UnknownObject",
      message: "no object at \(path)")
  }
}
