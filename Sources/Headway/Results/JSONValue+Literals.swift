extension JSONValue: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// An array: `[1, "two"]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object: `["key": "value"]`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
