extension PageScripts {
    // A task of the page after the caller's action (run in Headway's isolated world, where the
    // page cannot replace `setTimeout`): WebKit starts the navigations a script schedules
    // (`location.href = …`, `form.submit()`, a `submit` handler's form submission) from a
    // zero-delay timer set before it, and asks for their policy on the same connection, ahead of
    // this answer. A page that goes away meanwhile answers at `pagehide`.
    static let nextTask = """
    await new Promise((r) => { setTimeout(r, 0); addEventListener('pagehide', r, { once: true }); });
    return 0;
    """
}
