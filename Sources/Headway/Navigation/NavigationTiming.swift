// The timing guesses the navigation code makes about WebKit, named after what they cover.
enum NavigationTiming {
    // After the FINISHED of a load the page's own navigation cancelled, WebKit sends that
    // navigation's STARTED at once; a frame's navigation mistaken for the page's sends none.
    static let replacedLoadStart: Duration = .milliseconds(500)

    // A page-started navigation's policy decision names the URL it goes to; its STARTED (with the
    // old URL until commit) may come this much later when a new web process has to start.
    static let policyDecisionFreshness: Duration = .seconds(5)

    // decide-policy reports frames' navigations too; a main-frame one right after the load event
    // starts within this long (added to a meta refresh's delay).
    static let clientRedirectStart: Duration = .milliseconds(300)

    // WebKit asks for the page icon as the load finishes; a load waits this long at most for that
    // request to end, as a browser left open would let it.
    static let iconWait: Duration = .seconds(1)

    // A navigation the page asked for (its policy decision allowed) starts within this long, or
    // was a frame's.
    static let policyToStart: Duration = .seconds(1)
    // The same, for a navigation a user's script scheduled, once the script has let the page run
    // one task after it (WebDriver's Execute Script).
    static let afterOwnTask: Duration = .milliseconds(250)

    // WebKit's own limit on redirects in one load (and Headway's on client redirects).
    static let maxRedirects = 20
}
