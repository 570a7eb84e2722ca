import Foundation
import Headway

// The bytes of frames one `headway load --filmstrip` run may write: a long list or --repeat
// never fills the disk. Past the bound, a load's frames are not written and the load says so.
@EngineActor
final class FilmstripBudget {
    static let mostBytes = 4 << 30
    private(set) var written = 0

    // Throws when writing `filmstrip` would pass the bound.
    func check(_ filmstrip: Filmstrip, of url: URL) throws {
        guard written + Self.bytes(of: filmstrip) <= Self.mostBytes else {
            throw HeadwayError(.fileUnwritable, "the frames of \(url.absoluteString) were not written: the run's "
                               + "filmstrips reached \(Self.mostBytes >> 30) GiB, --filmstrip's bound for one run")
        }
    }

    // Counts a filmstrip written.
    func take(_ filmstrip: Filmstrip) { written += Self.bytes(of: filmstrip) }

    private static func bytes(of filmstrip: Filmstrip) -> Int { filmstrip.frames.reduce(0) { $0 + $1.pngData.count } }
}
