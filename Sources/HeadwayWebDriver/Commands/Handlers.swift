import Headway

// A command's handler: runs on the engine actor, inside the session's command queue.
package typealias Handler = @EngineActor (Session, CommandRequest) async throws -> JSONValue

// Every session command's handler, one table per area.
@EngineActor
package enum Handlers {
    package static let all: [Command: Handler] = [
        navigation, scripts, elements, elementInteraction, windows, frames, cookies, prompts, screenshots,
        actions, headway, uploads,
    ].reduce(into: [:]) { table, area in table.merge(area) { first, _ in first } }
}
