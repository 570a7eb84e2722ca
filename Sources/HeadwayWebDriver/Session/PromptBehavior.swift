import Headway

// What a session does with a user prompt that is open when a command comes
// (https://www.w3.org/TR/webdriver2/#dfn-user-prompt-handler).
package enum PromptBehavior: String, Sendable {
    case dismiss, accept, ignore
    case dismissAndNotify = "dismiss and notify"
    case acceptAndNotify = "accept and notify"

    init(parsing value: JSONValue) throws(WebDriverError) {
        // WebDriver BiDi's object form names a behaviour per prompt type; its "default" is used.
        let name = value.stringValue ?? value["default"]?.stringValue
        guard let name, let behavior = PromptBehavior(rawValue: name) else {
            throw WebDriverError(
                .invalidArgument,
                "\"unhandledPromptBehavior\" must be dismiss, accept, dismiss and notify, accept and notify or ignore"
            )
        }
        self = behavior
    }

    var accepts: Bool { self == .accept || self == .acceptAndNotify }
    var notifies: Bool { self == .dismissAndNotify || self == .acceptAndNotify || self == .ignore }
}
