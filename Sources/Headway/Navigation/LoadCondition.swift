/// When `Page.load(_:until:timeout:filmstrip:)` counts a load as done.
public enum LoadCondition: String, Sendable, CaseIterable, Codable {
    /// The page's load event fired (after any client-side redirect): the default.
    case load
    /// The main frame's DOMContentLoaded fired: images, stylesheets and frames may still load.
    case domContentLoaded
    /// The load event fired and then no request was in flight for 500 ms.
    case networkIdle
    /// The main frame's navigation committed (the new document replaced the old one, before it
    /// has parsed): WebDriver's page load strategy "none". The load goes on; the result has no
    /// Navigation Timing, resources or page icon.
    case committed
}
