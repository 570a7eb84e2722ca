import Foundation
import Headway

// `--script-for N:FILE`: snippets for one URL argument only, by its 1-based position.
enum ScriptsFor {
    // Each position's files, in the order given; a bad value or a position past the URL
    // arguments throws `.invalidArgument` with one line.
    static func parse(_ values: [String], urlArguments: Int) throws -> [Int: [String]] {
        var files: [Int: [String]] = [:]
        for value in values {
            guard let colon = value.firstIndex(of: ":"), let position = Int(value[..<colon]),
                  colon != value.index(before: value.endIndex) else {
                throw HeadwayError(.invalidArgument, "--script-for must be N:FILE (N the URL argument's position, "
                    + "from 1), not \(value.debugDescription)")
            }
            guard (1...max(1, urlArguments)).contains(position), urlArguments > 0 else {
                let count = urlArguments == 1 ? "is 1 URL argument" : "are \(urlArguments) URL arguments"
                throw HeadwayError(.invalidArgument, "--script-for \(position): there \(count) "
                    + "(--script-for numbers them from 1; URLs from --urls have none)")
            }
            files[position, default: []].append(String(value[value.index(after: colon)...]))
        }
        return files
    }
}
