import Foundation

extension Page {
    // The input counts (`inputSeen`), or nil when a dialog is held open or opens while they are
    // read: the page then waits in the dialog and cannot answer until the client closes it.
    func inputSeenUnlessDialog() async throws -> JSONValue? {
        guard holdsDialogs else { return try await inputSeen() }
        guard openDialog == nil else { return nil }
        return try await withThrowingTaskGroup(of: InputCheck.self) { group in
            group.addTask { @Sendable @EngineActor () async throws -> InputCheck in
                .counts(try await self.inputSeen())
            }
            group.addTask { @Sendable @EngineActor () async throws -> InputCheck in
                // Nil also when the page closes: the counts' call then answers.
                await self.dialogOpened(timeout: Self.inputDeadline) != nil ? .dialog : .noDialog
            }
            defer { group.cancelAll() }
            while let check = try await group.next() {
                switch check {
                case .counts(let counts): return counts
                case .dialog: return nil
                case .noDialog: continue
                }
            }
            throw CancellationError()
        }
    }
}

// How reading the input counts against a dialog opening ended.
private enum InputCheck: Sendable { case counts(JSONValue), dialog, noDialog }
