import Foundation
import Headway

// The bytes of frames one `headway load --filmstrip` run may write: a long list or --repeat
// never fills the disk. Past the bound, a load's frames are not written and the load says so.
@EngineActor
final class FilmstripBudget {
    static let mostBytes = 4 << 30
    private(set) var written = 0

    func take(_ filmstrip: Filmstrip, of url: URL) throws {
        let bytes = filmstrip.frames.reduce(0) { $0 + $1.pngData.count }
        guard written + bytes <= Self.mostBytes else {
            throw HeadwayError(.fileUnwritable, "the frames of \(url.absoluteString) were not written: the run's "
                               + "filmstrips reached \(Self.mostBytes >> 30) GiB, --filmstrip's bound for one run")
        }
        written += bytes
    }
}
