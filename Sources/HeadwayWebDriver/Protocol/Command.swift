// Every command of https://www.w3.org/TR/webdriver2/#endpoints, plus Is Element Displayed (which
// WebKitWebDriver, geckodriver and chromedriver all answer) and Headway's extensions.
package enum Command: String, Sendable, CaseIterable {
    case newSession, deleteSession, status, getTimeouts, setTimeouts
    case navigateTo, getCurrentURL, back, forward, refresh, getTitle
    case getWindowHandle, closeWindow, switchToWindow, getWindowHandles, newWindow
    case switchToFrame, switchToParentFrame
    case getWindowRect, setWindowRect, maximizeWindow, minimizeWindow, fullscreenWindow
    case getActiveElement, getElementShadowRoot
    case findElement, findElements, findElementFromElement, findElementsFromElement
    case findElementFromShadowRoot, findElementsFromShadowRoot
    case isElementSelected, getElementAttribute, getElementProperty, getElementCSSValue
    case getElementText, getElementTagName, getElementRect, isElementEnabled
    case getComputedRole, getComputedLabel, isElementDisplayed
    case elementClick, elementClear, elementSendKeys
    case getPageSource, executeScript, executeAsyncScript
    case getAllCookies, getNamedCookie, addCookie, deleteCookie, deleteAllCookies
    case performActions, releaseActions
    case dismissAlert, acceptAlert, getAlertText, sendAlertText
    case takeScreenshot, takeElementScreenshot, printPage
    case headwayTiming, headwayBoosterStats, headwayHAR, headwayFilmstrip
    // Selenium Grid's upload, which Selenium's remote clients use for every file input.
    case uploadFile
}

// The endpoint table: method, URI template and command.
package enum Routes {
    package static let table: [(method: String, template: String, command: Command)] = [
        ("POST", "/session", .newSession),
        ("DELETE", "/session/{sessionId}", .deleteSession),
        ("GET", "/status", .status),
        ("GET", "/session/{sessionId}/timeouts", .getTimeouts),
        ("POST", "/session/{sessionId}/timeouts", .setTimeouts),
        ("POST", "/session/{sessionId}/url", .navigateTo),
        ("GET", "/session/{sessionId}/url", .getCurrentURL),
        ("POST", "/session/{sessionId}/back", .back),
        ("POST", "/session/{sessionId}/forward", .forward),
        ("POST", "/session/{sessionId}/refresh", .refresh),
        ("GET", "/session/{sessionId}/title", .getTitle),
        ("GET", "/session/{sessionId}/window", .getWindowHandle),
        ("DELETE", "/session/{sessionId}/window", .closeWindow),
        ("POST", "/session/{sessionId}/window", .switchToWindow),
        ("GET", "/session/{sessionId}/window/handles", .getWindowHandles),
        ("POST", "/session/{sessionId}/window/new", .newWindow),
        ("POST", "/session/{sessionId}/frame", .switchToFrame),
        ("POST", "/session/{sessionId}/frame/parent", .switchToParentFrame),
        ("GET", "/session/{sessionId}/window/rect", .getWindowRect),
        ("POST", "/session/{sessionId}/window/rect", .setWindowRect),
        ("POST", "/session/{sessionId}/window/maximize", .maximizeWindow),
        ("POST", "/session/{sessionId}/window/minimize", .minimizeWindow),
        ("POST", "/session/{sessionId}/window/fullscreen", .fullscreenWindow),
        ("GET", "/session/{sessionId}/element/active", .getActiveElement),
        ("GET", "/session/{sessionId}/element/{elementId}/shadow", .getElementShadowRoot),
        ("POST", "/session/{sessionId}/element", .findElement),
        ("POST", "/session/{sessionId}/elements", .findElements),
        ("POST", "/session/{sessionId}/element/{elementId}/element", .findElementFromElement),
        ("POST", "/session/{sessionId}/element/{elementId}/elements", .findElementsFromElement),
        ("POST", "/session/{sessionId}/shadow/{shadowId}/element", .findElementFromShadowRoot),
        ("POST", "/session/{sessionId}/shadow/{shadowId}/elements", .findElementsFromShadowRoot),
        ("GET", "/session/{sessionId}/element/{elementId}/selected", .isElementSelected),
        ("GET", "/session/{sessionId}/element/{elementId}/attribute/{name}", .getElementAttribute),
        ("GET", "/session/{sessionId}/element/{elementId}/property/{name}", .getElementProperty),
        ("GET", "/session/{sessionId}/element/{elementId}/css/{propertyName}", .getElementCSSValue),
        ("GET", "/session/{sessionId}/element/{elementId}/text", .getElementText),
        ("GET", "/session/{sessionId}/element/{elementId}/name", .getElementTagName),
        ("GET", "/session/{sessionId}/element/{elementId}/rect", .getElementRect),
        ("GET", "/session/{sessionId}/element/{elementId}/enabled", .isElementEnabled),
        ("GET", "/session/{sessionId}/element/{elementId}/computedrole", .getComputedRole),
        ("GET", "/session/{sessionId}/element/{elementId}/computedlabel", .getComputedLabel),
        ("GET", "/session/{sessionId}/element/{elementId}/displayed", .isElementDisplayed),
        ("POST", "/session/{sessionId}/element/{elementId}/click", .elementClick),
        ("POST", "/session/{sessionId}/element/{elementId}/clear", .elementClear),
        ("POST", "/session/{sessionId}/element/{elementId}/value", .elementSendKeys),
        ("GET", "/session/{sessionId}/source", .getPageSource),
        ("POST", "/session/{sessionId}/execute/sync", .executeScript),
        ("POST", "/session/{sessionId}/execute/async", .executeAsyncScript),
        ("GET", "/session/{sessionId}/cookie", .getAllCookies),
        ("GET", "/session/{sessionId}/cookie/{name}", .getNamedCookie),
        ("POST", "/session/{sessionId}/cookie", .addCookie),
        ("DELETE", "/session/{sessionId}/cookie/{name}", .deleteCookie),
        ("DELETE", "/session/{sessionId}/cookie", .deleteAllCookies),
        ("POST", "/session/{sessionId}/actions", .performActions),
        ("DELETE", "/session/{sessionId}/actions", .releaseActions),
        ("POST", "/session/{sessionId}/alert/dismiss", .dismissAlert),
        ("POST", "/session/{sessionId}/alert/accept", .acceptAlert),
        ("GET", "/session/{sessionId}/alert/text", .getAlertText),
        ("POST", "/session/{sessionId}/alert/text", .sendAlertText),
        ("GET", "/session/{sessionId}/screenshot", .takeScreenshot),
        ("GET", "/session/{sessionId}/element/{elementId}/screenshot", .takeElementScreenshot),
        ("POST", "/session/{sessionId}/print", .printPage),
        ("GET", "/session/{sessionId}/headway/timing", .headwayTiming),
        ("GET", "/session/{sessionId}/headway/booster", .headwayBoosterStats),
        ("GET", "/session/{sessionId}/headway/har", .headwayHAR),
        ("GET", "/session/{sessionId}/headway/filmstrip", .headwayFilmstrip),
        ("POST", "/session/{sessionId}/se/file", .uploadFile),
    ]
}
