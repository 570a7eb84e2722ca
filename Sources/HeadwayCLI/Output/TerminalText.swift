// Makes text a page controls (titles, console messages, snippet values, error messages) safe to
// show on a terminal: no escape sequences that move the cursor, retitle the window or hide what
// follows, and no bidi overrides that reorder it.
enum TerminalText {
    // Removes C0 controls except newline and tab, DEL, ESC sequences (CSI, OSC, DCS, and the
    // two-character ones), C1 controls (and the sequences they open), and bidi embeddings,
    // overrides and isolates.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isSuspect) else { return text }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                skipEscape(&scalars)
            case 0x9B:
                skipControlSequence(&scalars)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                skipString(&scalars)
            case 0x0A, 0x09:
                out.append(scalar)
            case _ where isSuspect(scalar):
                break
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    // `safe(text)` on a single line: line breaks and tabs become spaces.
    static func oneLine(_ text: String) -> String {
        String(safe(text).map { $0 == "\n" || $0 == "\t" ? " " : $0 })
    }

    private static func isSuspect(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    // After ESC: a CSI (`[`), a string (`]` OSC, `P` DCS, `X` SOS, `^` PM, `_` APC), or
    // intermediates and one final character.
    private static func skipEscape(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[": skipControlSequence(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        default:
            var current = next
            while (0x20...0x2F).contains(current.value), let following = scalars.next() { current = following }
        }
    }

    // Parameters and intermediates up to a final character in 0x40...0x7E.
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) || !(0x20...0x3F).contains(scalar.value) { return }
        }
    }

    // Up to BEL, ST (ESC \ or 0x9C), or the end of the text.
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }
}
