extension Page {
    // Adds a warning of Headway's own about the page (speculation rules it ignored, for one) to
    // its console messages, as if the page had logged it.
    func noteFromHeadway(_ text: String) {
        let entry = ConsoleMessage(level: "warn", text: text)
        consoleTotal += 1
        if console.count < Page.keptEntries { console.append(entry) }
        emit(.console(entry))
    }
}
