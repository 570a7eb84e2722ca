/// The bounds of every number Headway takes from outside, in one place. The library checks them
/// and throws `.invalidArgument` with a one-line message beyond them; the CLI and the WebDriver
/// server check only that a value is a number and quote these bounds.
///
/// ```swift
/// print(Limits.viewportSide)   // 1...16384
/// ```
public enum Limits {
    /// A viewport side, in CSS pixels (`Browser.Configuration.viewportWidth`, `Page.setViewportSize`,
    /// WebDriver's Set Window Rect).
    public static let viewportSide = 1...16_384
    /// A pointer coordinate, in CSS pixels, either side of 0: what GDK's events hold.
    public static let coordinate = 1_073_741_823.0
    /// A wheel turn, in CSS pixels, either way: a million is no user's.
    public static let wheelDelta = 1_000_000.0
    /// The longest timeout or wait Headway honours: a day. The CLI refuses longer ones; library
    /// calls and the WebDriver server's timeouts are clamped to it.
    public static let longestWait: Duration = .seconds(86_400)
    /// How long a request may be held for an interceptor before it goes as it is.
    public static let heldRequest: Duration = .seconds(60)
    /// A web process's memory limit, in MB (1 TB: WebKit takes a 32-bit count).
    public static let webProcessMemory = 1...1_048_576
    /// The hidden views a booster may prerender (`BoosterConfiguration.prerender`).
    public static let prerenderedPages = 0...20
    /// A filmstrip's frames a second (`FilmstripOptions.framesPerSecond`): 60 is a display's rate.
    public static let framesPerSecond = 1...60
}
