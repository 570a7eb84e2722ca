import Foundation

// Encodes any `Encodable` (the library's result types) to `OrderedJSON`, keeping keys in the
// order the type encodes them, so the CLI prints what the library's `Codable` conformances
// define, in a stable order. URLs encode as their absolute string.
struct OrderedJSONEncoder {
    static func encode(_ value: some Encodable) throws -> OrderedJSON {
        let node = Node()
        try NodeEncoder(node: node, codingPath: []).encodeValue(value)
        return node.json
    }
}

// One JSON value being built.
private final class Node {
    enum Content { case empty, value(OrderedJSON), object([(String, Node)]), array([Node]) }
    var content: Content = .empty

    var json: OrderedJSON {
        switch content {
        case .empty: return .null
        case .value(let value): return value
        case .object(let pairs): return .object(pairs.map { ($0.0, $0.1.json) })
        case .array(let items): return .array(items.map(\.json))
        }
    }

    func child(forKey key: String) -> Node {
        var pairs: [(String, Node)] = []
        if case .object(let existing) = content { pairs = existing }
        if let found = pairs.first(where: { $0.0 == key }) { return found.1 }
        let node = Node()
        pairs.append((key, node))
        content = .object(pairs)
        return node
    }

    func appendChild() -> Node {
        var items: [Node] = []
        if case .array(let existing) = content { items = existing }
        let node = Node()
        items.append(node)
        content = .array(items)
        return node
    }

    func makeObject() { if case .object = content {} else { content = .object([]) } }
    func makeArray() { if case .array = content {} else { content = .array([]) } }
}

private struct NodeEncoder: Encoder {
    let node: Node
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }

    func encodeValue(_ value: some Encodable) throws {
        if let url = value as? URL {
            node.content = .value(.string(url.absoluteString))
        } else {
            try value.encode(to: self)
        }
    }
}

private func scalar(_ value: Any) -> OrderedJSON? {
    switch value {
    case let v as Bool: return .bool(v)
    case let v as String: return .string(v)
    case let v as Double: return .number(v)
    case let v as Float: return .number(Double(v))
    case let v as any BinaryInteger: return .number(Double(v))
    default: return nil
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = node.child(forKey: key.stringValue)
        if let json = scalar(value) {
            child.content = .value(json)
        } else {
            try NodeEncoder(node: child, codingPath: codingPath + [key]).encodeValue(value)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
            .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey]
    var count: Int { if case .array(let items) = node.content { return items.count } else { return 0 } }

    mutating func encodeNil() throws { node.appendChild().content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = node.appendChild()
        if let json = scalar(value) {
            child.content = .value(json)
        } else {
            try NodeEncoder(node: child, codingPath: codingPath).encodeValue(value)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.appendChild(), codingPath: codingPath) }
}

private struct Single: SingleValueEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let json = scalar(value) {
            node.content = .value(json)
        } else {
            try NodeEncoder(node: node, codingPath: codingPath).encodeValue(value)
        }
    }
}
