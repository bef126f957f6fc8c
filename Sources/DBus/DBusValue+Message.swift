// Decoding D-Bus values from a libdbus message, once and generically, and
// appending basic values to one. Every DBusMessageIter call of the module
// is in this file.

internal import CDBus
import Glibc

/// The D-Bus type codes.
///
/// libdbus defines `DBUS_TYPE_*` as casts (`((int) 's')`), which Swift does
/// not import; the codes are taken from the `DBUS_TYPE_*_AS_STRING` macros
/// instead, which hold the same character.
enum DBusTypeCode {
  static let invalid: Int32 = 0
  static let byte = code(DBUS_TYPE_BYTE_AS_STRING)
  static let boolean = code(DBUS_TYPE_BOOLEAN_AS_STRING)
  static let int16 = code(DBUS_TYPE_INT16_AS_STRING)
  static let uint16 = code(DBUS_TYPE_UINT16_AS_STRING)
  static let int32 = code(DBUS_TYPE_INT32_AS_STRING)
  static let uint32 = code(DBUS_TYPE_UINT32_AS_STRING)
  static let int64 = code(DBUS_TYPE_INT64_AS_STRING)
  static let uint64 = code(DBUS_TYPE_UINT64_AS_STRING)
  static let double = code(DBUS_TYPE_DOUBLE_AS_STRING)
  static let string = code(DBUS_TYPE_STRING_AS_STRING)
  static let objectPath = code(DBUS_TYPE_OBJECT_PATH_AS_STRING)
  static let signature = code(DBUS_TYPE_SIGNATURE_AS_STRING)
  static let unixFileDescriptor = code(DBUS_TYPE_UNIX_FD_AS_STRING)
  static let array = code(DBUS_TYPE_ARRAY_AS_STRING)
  static let variant = code(DBUS_TYPE_VARIANT_AS_STRING)
  static let structure = code(DBUS_TYPE_STRUCT_AS_STRING)
  static let dictionaryEntry = code(DBUS_TYPE_DICT_ENTRY_AS_STRING)

  private static func code(_ text: String) -> Int32 {
    Int32(text.utf8.first!)
  }
}

extension DBusValue {
  /// Decodes every argument of a message, in order.
  ///
  /// - Parameters:
  ///   - message: A `DBusMessage *`.
  ///   - keepingDescriptors: Whether the copies of Unix file descriptors
  ///     stay open for the caller, who must close them; otherwise they are
  ///     closed and -1 is kept.
  static func arguments(
    of message: OpaquePointer, keepingDescriptors: Bool = false
  ) -> [DBusValue] {
    var iterator = DBusMessageIter()
    guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
    var values: [DBusValue] = []
    while dbus_message_iter_get_arg_type(&iterator) != DBusTypeCode.invalid {
      values.append(
        DBusValue(reading: &iterator, keepingDescriptors: keepingDescriptors))
      dbus_message_iter_next(&iterator)
    }
    return values
  }

  /// Decodes the value an iterator points at, recursing into containers.
  ///
  /// The iterator is not advanced.
  init(reading iterator: inout DBusMessageIter, keepingDescriptors: Bool) {
    let type = dbus_message_iter_get_arg_type(&iterator)
    switch type {
    case DBusTypeCode.byte:
      self = .byte(Self.basic(&iterator, UInt8(0)))
    case DBusTypeCode.boolean:
      self = .boolean(Self.basic(&iterator, dbus_bool_t(0)) != 0)
    case DBusTypeCode.int16:
      self = .int16(Self.basic(&iterator, Int16(0)))
    case DBusTypeCode.uint16:
      self = .uint16(Self.basic(&iterator, UInt16(0)))
    case DBusTypeCode.int32:
      self = .int32(Self.basic(&iterator, Int32(0)))
    case DBusTypeCode.uint32:
      self = .uint32(Self.basic(&iterator, UInt32(0)))
    case DBusTypeCode.int64:
      self = .int64(Self.basic(&iterator, Int64(0)))
    case DBusTypeCode.uint64:
      self = .uint64(Self.basic(&iterator, UInt64(0)))
    case DBusTypeCode.double:
      self = .double(Self.basic(&iterator, Double(0)))
    case DBusTypeCode.string:
      self = .string(Self.text(&iterator))
    case DBusTypeCode.objectPath:
      self = .objectPath(Self.text(&iterator))
    case DBusTypeCode.signature:
      self = .signature(Self.text(&iterator))
    case DBusTypeCode.unixFileDescriptor:
      // libdbus hands out a duplicate that the reader owns.
      let descriptor = Self.basic(&iterator, Int32(-1))
      if keepingDescriptors {
        self = .unixFileDescriptor(descriptor)
      } else {
        if descriptor >= 0 { close(descriptor) }
        self = .unixFileDescriptor(-1)
      }
    case DBusTypeCode.array:
      self = Self.readArray(&iterator, keepingDescriptors: keepingDescriptors)
    case DBusTypeCode.variant:
      var content = DBusMessageIter()
      dbus_message_iter_recurse(&iterator, &content)
      self = .variant(
        DBusValue(reading: &content, keepingDescriptors: keepingDescriptors))
    case DBusTypeCode.structure:
      var fields = DBusMessageIter()
      dbus_message_iter_recurse(&iterator, &fields)
      self = .structure(
        Self.readSequence(&fields, keepingDescriptors: keepingDescriptors))
    default:
      self = .unsupported(type)
    }
  }

  /// Reads a fixed-size basic value.
  private static func basic<T>(
    _ iterator: inout DBusMessageIter, _ initial: T
  ) -> T {
    var value = initial
    withUnsafeMutablePointer(to: &value) { pointer in
      dbus_message_iter_get_basic(&iterator, pointer)
    }
    return value
  }

  /// Reads a string, object path or signature.
  private static func text(_ iterator: inout DBusMessageIter) -> String {
    var characters: UnsafePointer<CChar>? = nil
    dbus_message_iter_get_basic(&iterator, &characters)
    return characters.map { String(cString: $0) } ?? ""
  }

  /// Reads an array: bytes in one piece, dictionary entries as a
  /// dictionary, anything else element by element.
  private static func readArray(
    _ iterator: inout DBusMessageIter, keepingDescriptors: Bool
  ) -> DBusValue {
    let elementType = dbus_message_iter_get_element_type(&iterator)
    var elements = DBusMessageIter()
    dbus_message_iter_recurse(&iterator, &elements)
    switch elementType {
    case DBusTypeCode.byte:
      var start: UnsafeRawPointer? = nil
      var count: Int32 = 0
      dbus_message_iter_get_fixed_array(&elements, &start, &count)
      guard let start, count > 0 else { return .bytes([]) }
      return .bytes(
        Array(UnsafeRawBufferPointer(start: start, count: Int(count))))
    case DBusTypeCode.dictionaryEntry:
      var entries: [DBusValue: DBusValue] = [:]
      while dbus_message_iter_get_arg_type(&elements) != DBusTypeCode.invalid {
        var entry = DBusMessageIter()
        dbus_message_iter_recurse(&elements, &entry)
        let key = DBusValue(
          reading: &entry, keepingDescriptors: keepingDescriptors)
        dbus_message_iter_next(&entry)
        entries[key] = DBusValue(
          reading: &entry, keepingDescriptors: keepingDescriptors)
        dbus_message_iter_next(&elements)
      }
      return .dictionary(entries)
    default:
      return .array(
        readSequence(&elements, keepingDescriptors: keepingDescriptors))
    }
  }

  /// Reads values from an iterator until its end.
  private static func readSequence(
    _ iterator: inout DBusMessageIter, keepingDescriptors: Bool
  ) -> [DBusValue] {
    var values: [DBusValue] = []
    while dbus_message_iter_get_arg_type(&iterator) != DBusTypeCode.invalid {
      values.append(
        DBusValue(reading: &iterator, keepingDescriptors: keepingDescriptors))
      dbus_message_iter_next(&iterator)
    }
    return values
  }

  /// Appends values to a message as its arguments, each with the
  /// signature it infers (``DBusValue/inferredSignature``).
  ///
  /// - Returns: False if a value has no signature to infer (an empty
  ///   array), or libdbus lacked the memory to append it.
  static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
    var types: [Substring] = []
    for value in values {
      guard let signature = value.inferredSignature,
        let complete = DBusSignature.completeTypes(in: signature),
        complete.count == 1
      else { return false }
      types.append(complete[0])
    }
    return append(values, types: types, to: message)
  }

  /// Appends values to a message as arguments of the given signature, or
  /// of the signatures they infer when it is nil.
  ///
  /// - Returns: False if the values do not fit the signature, or libdbus
  ///   lacked the memory to append them.
  static func append(
    _ values: [DBusValue], signature: String?, to message: OpaquePointer
  ) -> Bool {
    guard let signature else { return append(values, to: message) }
    let types = DBusSignature.completeTypes(in: signature)
    guard let types, types.count == values.count else { return false }
    return append(values, types: types, to: message)
  }

  /// Appends values of these complete types, once all of them are known
  /// to fit: libdbus aborts on a container closed half-filled, so nothing
  /// reaches it that does not fit.
  private static func append(
    _ values: [DBusValue], types: [Substring], to message: OpaquePointer
  ) -> Bool {
    guard zip(values, types).allSatisfy({ $0.fits($1) }) else { return false }
    var iterator = DBusMessageIter()
    dbus_message_iter_init_append(message, &iterator)
    for (value, type) in zip(values, types) {
      guard value.append(as: type, to: &iterator) else { return false }
    }
    return true
  }

  /// Whether the value can be sent as this one complete type: each
  /// element, entry and field of it, recursively, and a variant's content
  /// as the one complete type it infers.
  package func fits(_ type: Substring) -> Bool {
    if case .typed(_, let inner) = self { return inner.fits(type) }
    guard let code = type.first else { return false }
    switch (code, self) {
    case ("y", .byte), ("b", .boolean), ("n", .int16), ("q", .uint16),
      ("i", .int32), ("u", .uint32), ("x", .int64), ("t", .uint64),
      ("d", .double), ("h", .unixFileDescriptor), ("s", .string):
      return true
    case ("o", .objectPath(let path)):
      return isValidObjectPath(path)
    case ("g", .signature(let text)):
      return DBusSignature.completeTypes(in: text) != nil
    case ("v", _):
      guard let (inner, signature) = variantContent else { return false }
      return inner.fits(Substring(signature))
    case ("a", _):
      let element = type.dropFirst()
      if element.first == "{" {
        guard
          let types = DBusSignature.completeTypes(
            in: element.dropFirst().dropLast()),
          types.count == 2, let entries = dictionary
        else { return false }
        return entries.allSatisfy {
          $0.key.fits(types[0]) && $0.value.fits(types[1])
        }
      }
      let elements: [DBusValue]
      switch self {
      case .array(let values): elements = values
      case .bytes(let bytes): elements = bytes.map { .byte($0) }
      default: return false
      }
      return elements.allSatisfy { $0.fits(element) }
    case ("(", .structure(let fields)):
      guard
        let types = DBusSignature.completeTypes(
          in: type.dropFirst().dropLast()),
        types.count == fields.count
      else { return false }
      return zip(fields, types).allSatisfy { $0.fits($1) }
    default:
      return false
    }
  }

  /// What a variant of this value holds (the content of a `.variant`, or
  /// the value itself) and the one complete type it infers; nil when it
  /// infers none.
  private var variantContent: (DBusValue, String)? {
    let inner: DBusValue
    if case .variant(let content) = self {
      inner = content
    } else {
      inner = self
    }
    guard let signature = inner.inferredSignature,
      DBusSignature.completeTypes(in: signature)?.count == 1
    else { return nil }
    return (inner, signature)
  }

  /// Appends the value as one complete type.
  private func append(
    as type: Substring, to iterator: inout DBusMessageIter
  ) -> Bool {
    if case .typed(_, let inner) = self {
      return inner.append(as: type, to: &iterator)
    }
    guard let code = type.first else { return false }
    switch (code, self) {
    case ("y", .byte(let value)):
      return Self.append(value, DBusTypeCode.byte, &iterator)
    case ("b", .boolean(let value)):
      let flag = dbus_bool_t(value ? 1 : 0)
      return Self.append(flag, DBusTypeCode.boolean, &iterator)
    case ("n", .int16(let value)):
      return Self.append(value, DBusTypeCode.int16, &iterator)
    case ("q", .uint16(let value)):
      return Self.append(value, DBusTypeCode.uint16, &iterator)
    case ("i", .int32(let value)):
      return Self.append(value, DBusTypeCode.int32, &iterator)
    case ("u", .uint32(let value)):
      return Self.append(value, DBusTypeCode.uint32, &iterator)
    case ("x", .int64(let value)):
      return Self.append(value, DBusTypeCode.int64, &iterator)
    case ("t", .uint64(let value)):
      return Self.append(value, DBusTypeCode.uint64, &iterator)
    case ("d", .double(let value)):
      return Self.append(value, DBusTypeCode.double, &iterator)
    case ("h", .unixFileDescriptor(let value)):
      return Self.append(value, DBusTypeCode.unixFileDescriptor, &iterator)
    case ("s", .string(let text)):
      return Self.appendText(text, DBusTypeCode.string, &iterator)
    case ("o", .objectPath(let path)):
      // libdbus aborts on an invalid path.
      guard isValidObjectPath(path) else { return false }
      return Self.appendText(path, DBusTypeCode.objectPath, &iterator)
    case ("g", .signature(let text)):
      guard DBusSignature.completeTypes(in: text) != nil else { return false }
      return Self.appendText(text, DBusTypeCode.signature, &iterator)
    case ("v", _):
      guard let (inner, signature) = variantContent else { return false }
      var content = DBusMessageIter()
      guard
        dbus_message_iter_open_container(
          &iterator, DBusTypeCode.variant, signature, &content) != 0
      else { return false }
      let appended = inner.append(as: Substring(signature), to: &content)
      return dbus_message_iter_close_container(&iterator, &content) != 0
        && appended
    case ("a", _):
      return appendArray(of: type.dropFirst(), to: &iterator)
    case ("(", .structure(let fields)):
      guard
        let types = DBusSignature.completeTypes(
          in: type.dropFirst().dropLast()),
        types.count == fields.count
      else { return false }
      var content = DBusMessageIter()
      guard
        dbus_message_iter_open_container(
          &iterator, DBusTypeCode.structure, nil, &content) != 0
      else { return false }
      var appended = true
      for (field, type) in zip(fields, types) where appended {
        appended = field.append(as: type, to: &content)
      }
      return dbus_message_iter_close_container(&iterator, &content) != 0
        && appended
    default:
      return false
    }
  }

  /// Appends the value as an array of `element`: bytes, dictionary
  /// entries (sorted by key, so that the bytes are the same each time) or
  /// any other elements.
  private func appendArray(
    of element: Substring, to iterator: inout DBusMessageIter
  ) -> Bool {
    var array = DBusMessageIter()
    guard
      dbus_message_iter_open_container(
        &iterator, DBusTypeCode.array, String(element), &array) != 0
    else { return false }
    var appended = true
    if element.first == "{" {
      guard
        let types = DBusSignature.completeTypes(
          in: element.dropFirst().dropLast()),
        types.count == 2, let entries = dictionary
      else {
        dbus_message_iter_abandon_container(&iterator, &array)
        return false
      }
      for (key, value) in entries.sorted(by: { "\($0.key)" < "\($1.key)" })
      where appended {
        var entry = DBusMessageIter()
        guard
          dbus_message_iter_open_container(
            &array, DBusTypeCode.dictionaryEntry, nil, &entry) != 0
        else { return false }
        appended =
          key.append(as: types[0], to: &entry)
          && value.append(as: types[1], to: &entry)
        appended =
          dbus_message_iter_close_container(&array, &entry) != 0 && appended
      }
    } else {
      guard let elements = elements(of: self) else {
        dbus_message_iter_abandon_container(&iterator, &array)
        return false
      }
      for value in elements where appended {
        appended = value.append(as: element, to: &array)
      }
    }
    return dbus_message_iter_close_container(&iterator, &array) != 0
      && appended
  }

  /// The elements of an array value, bytes included.
  private func elements(of value: DBusValue) -> [DBusValue]? {
    switch value {
    case .array(let elements): elements
    case .bytes(let bytes): bytes.map { .byte($0) }
    default: nil
    }
  }

  private static func append<T>(
    _ value: T, _ type: Int32, _ iterator: inout DBusMessageIter
  ) -> Bool {
    var value = value
    return withUnsafePointer(to: &value) { pointer in
      dbus_message_iter_append_basic(&iterator, type, pointer) != 0
    }
  }

  private static func appendText(
    _ text: String, _ type: Int32, _ iterator: inout DBusMessageIter
  ) -> Bool {
    text.withCString { characters in
      var pointer: UnsafePointer<CChar>? = characters
      return withUnsafePointer(to: &pointer) { address in
        dbus_message_iter_append_basic(&iterator, type, address) != 0
      }
    }
  }
}
