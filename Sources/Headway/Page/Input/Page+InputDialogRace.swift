import Foundation

extension Page {
    // The input counts (`inputSeen`), or nil when a dialog is held open or opens while they are
    // read: the page then waits in the dialog and cannot answer until the client closes it.
    func inputSeenUnlessDialog() async throws -> JSONValue? {
        guard holdsDialogs else { return try await inputSeen() }
        guard openDialog == nil else { return nil }
        return try await unlessDialogOpens { try await self.inputSeen() }
    }

    /// Runs `work`, unless a dialog held open (`holdsDialogs`) opens first: then `work` is
    /// cancelled and this returns nil, the dialog left open for `closeDialog`. So a script, input
    /// or a load that opens an alert returns at once instead of waiting out its timeout, which it
    /// would, since the page waits in the dialog. Returns `work`'s value, or throws its error.
    ///
    /// With `cancellingWork` false, a dialog leaves `work` running on in a task of the page's (a
    /// load then goes on once the dialog is answered); cancelling the caller still cancels it.
    public func unlessDialogOpens<T: Sendable>(
        cancellingWork: Bool = true,
        _ work: @escaping @Sendable @EngineActor () async throws -> T
    ) async throws -> T? {
        if !cancellingWork {
            guard let running = tasks.start({ () async -> Result<T, any Error> in
                do { return .success(try await work()) } catch { return .failure(error) }
            }) else { throw HeadwayError(.closed, "the page is closed") }
            return try await withTaskCancellationHandler {
                try await unlessDialogOpens { await running.value }?.get()
            } onCancel: {
                running.cancel()
            }
        }
        return try await withThrowingTaskGroup(of: DialogRace<T>.self, returning: T?.self) { group in
            group.addTask { @Sendable @EngineActor () async throws -> DialogRace<T> in
                .done(try await work())
            }
            group.addTask { @Sendable @EngineActor () async throws -> DialogRace<T> in
                // Watched an hour at a time; a wait that ends early without a dialog means the
                // page closed (or the race is over): `work` then answers.
                while true {
                    let started = ContinuousClock.now
                    if await self.dialogOpened(timeout: .seconds(3_600)) != nil { return .dialog }
                    if ContinuousClock.now - started < .seconds(3_600) || Task.isCancelled { return .pageGone }
                }
            }
            defer { group.cancelAll() }
            while let outcome = try await group.next() {
                switch outcome {
                case .done(let value): return value
                case .dialog: return nil
                case .pageGone: continue
                }
            }
            throw CancellationError()
        }
    }
}

// How work raced against a dialog ended.
private enum DialogRace<T: Sendable>: Sendable { case done(T), dialog, pageGone }
