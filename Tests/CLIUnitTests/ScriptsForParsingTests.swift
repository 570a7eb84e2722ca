import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// `--script-for N:FILE`: each URL argument's own snippets, and the one-line refusals.
@Suite("load's --script-for")
struct ScriptsForParsingTests {
    @Test func filesGoToTheirURLArgumentInOrder() throws {
        let files = try ScriptsFor.parse(["2:next.js", "1:a.js", "2:more.js", "1:dir/with:colon.js"], urlArguments: 2)
        #expect(files == [1: ["a.js", "dir/with:colon.js"], 2: ["next.js", "more.js"]])
        #expect(try ScriptsFor.parse([], urlArguments: 0).isEmpty)
    }

    @Test func badValuesAreOneLineUsageErrors() {
        let bad: [([String], Int, String)] = [
            (["3:x.js"], 2, "--script-for 3: there are 2 URL arguments (--script-for numbers them from 1; URLs from "
                + "--urls have none)"),
            (["0:x.js"], 2, "--script-for 0: there are 2 URL arguments (--script-for numbers them from 1; URLs from "
                + "--urls have none)"),
            (["2:x.js"], 1, "--script-for 2: there is 1 URL argument (--script-for numbers them from 1; URLs from "
                + "--urls have none)"),
            (["x.js"], 1, #"--script-for must be N:FILE (N the URL argument's position, from 1), not "x.js""#),
            (["1:"], 1, #"--script-for must be N:FILE (N the URL argument's position, from 1), not "1:""#),
            (["one:x.js"], 1, #"--script-for must be N:FILE (N the URL argument's position, from 1), not "one:x.js""#),
        ]
        for (values, count, message) in bad {
            do {
                _ = try ScriptsFor.parse(values, urlArguments: count)
                Issue.record("\(values) was accepted")
            } catch let error as HeadwayError {
                #expect(error.code == .invalidArgument && error.message == message, "\(values): \(error.message)")
            } catch {
                Issue.record("\(values): \(error)")
            }
        }
    }
}
