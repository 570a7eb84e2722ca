import Headway

// Perform Actions, Release Actions (https://www.w3.org/TR/webdriver2/#actions).
extension Handlers {
    static let actions: [Command: Handler] = [
        .performActions: { session, request in
            let page = try session.currentPage()
            let ticks = try ActionSequences.ticks(request.body, state: &session.inputState)
            try await session.followingNavigation(on: page) { try await session.dispatch(ticks) }
            return .null
        },
        .releaseActions: { session, _ in
            let page = try session.currentPage()
            try await session.followingNavigation(on: page) { try await session.releaseActions() }
            return .null
        },
    ]
}
