import Headway

// Find Element(s) from the document, an element or a shadow root; element state and properties.
// The finding lives in ElementFinding.swift, the JavaScript in Script/ElementAtoms.swift.
extension Handlers {
    static let elements: [Command: Handler] = [
        .findElement: { session, request in try await session.find(request, from: .document, all: false) },
        .findElements: { session, request in try await session.find(request, from: .document, all: true) },
        .findElementFromElement: { session, request in
            try await session.find(request, from: .element(request.parameter("elementId")), all: false)
        },
        .findElementsFromElement: { session, request in
            try await session.find(request, from: .element(request.parameter("elementId")), all: true)
        },
        .findElementFromShadowRoot: { session, request in
            try await session.find(request, from: .shadowRoot(request.parameter("shadowId")), all: false)
        },
        .findElementsFromShadowRoot: { session, request in
            try await session.find(request, from: .shadowRoot(request.parameter("shadowId")), all: true)
        },
        .getActiveElement: { session, _ in try await session.callAtom(ElementAtoms.activeElement) },
        .getElementShadowRoot: { session, request in try await session.elementAtom(ElementAtoms.shadowRoot, request) },
        .isElementSelected: { session, request in try await session.elementAtom(ElementAtoms.isSelected, request) },
        .getElementAttribute: { session, request in
            try await session.elementAtom(ElementAtoms.attribute, request, .string(request.parameter("name")))
        },
        // In the page's world, where the page's own expandos are, serialized as Execute Script's
        // results are (an element as a reference).
        .getElementProperty: { session, request in
            try await session.readInPage("const value = arguments[0][arguments[1]]; return value;",
                                         [Session.elementReference(request.parameter("elementId")),
                                          .string(request.parameter("name"))])
        },
        .getElementCSSValue: { session, request in
            try await session.elementAtom(ElementAtoms.cssValue, request, .string(request.parameter("propertyName")))
        },
        .getElementText: { session, request in try await session.elementAtom(VisibleTextAtom.source, request) },
        .getElementTagName: { session, request in try await session.elementAtom(ElementAtoms.tagName, request) },
        .getElementRect: { session, request in try await session.elementAtom(ElementAtoms.rect, request) },
        .isElementEnabled: { session, request in try await session.elementAtom(ElementAtoms.isEnabled, request) },
        .getComputedRole: { session, request in try await session.elementAtom(AccessibilityAtoms.role, request) },
        .getComputedLabel: { session, request in try await session.elementAtom(AccessibilityAtoms.label, request) },
        .isElementDisplayed: { session, request in try await session.elementAtom(DisplayedAtom.source, request) },
    ]
}

extension Session {
    // Runs an element atom with the request's element (from the URI) as its first argument.
    func elementAtom(_ atom: String, _ request: CommandRequest, _ more: JSONValue...) async throws -> JSONValue {
        try await callAtom(atom, [Self.elementReference(request.parameter("elementId"))] + more)
    }
}
