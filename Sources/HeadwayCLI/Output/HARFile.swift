import Foundation
import Headway

// Writes and reads HAR files: the library's `HARLog`, through the CLI's one JSON encoder.
enum HARFile {
    // Writes `loads` as HAR 1.2 to `path` (see `OutputFile`); a file that cannot be written is
    // `.fileUnwritable`.
    static func write(_ loads: [LoadResult], to path: String) throws {
        let text = try OrderedJSONEncoder.encode(HARLog(loads: loads)).text + "\n"
        try OutputFile.write(Data(text.utf8), to: path, what: "the HAR file")
    }
}
