import Foundation
@testable import Headway
import Testing

@Suite("Booster link policy")
struct BoosterLinkPolicyTests {
    let base = URL(string: "http://example.test/dir/page.html")!

    func policy(_ change: (inout BoosterConfiguration) -> Void = { _ in }) -> LinkPolicy {
        var configuration = BoosterConfiguration()
        change(&configuration)
        return LinkPolicy(configuration: configuration)
    }

    @Test func sideEffectsOtherHostsAndQueriesAreLeftOutWithTheirReason() {
        let links = [
            "/a.html", "/logout", "/account/login", "/shop/cart", "/x.html?q=1", "http://other.test/o.html",
            "mailto:a@b", "javascript:void(0)", "/a.html#frag", "/b.html", "/c.html", "/d.html",
        ]
        .map { LinkPolicy.Link(href: $0) }
        let marked = [
            LinkPolicy.Link(href: "/z.html", download: true), LinkPolicy.Link(href: "/n.html", nofollow: true),
            LinkPolicy.Link(href: "/o.html", optOut: true),
        ]
        let selection = policy { $0.maxPagesPerPage = 3 }.select(links + marked, page: base)
        #expect(selection.pages.map(\.path) == ["/a.html", "/b.html", "/c.html"])
        let out = selection.leftOut
        #expect(out[.sideEffect] == 3 && out[.query] == 1 && out[.host] == 1 && out[.scheme] == 2)
        #expect(out[.duplicate] == 1 && out[.cap] == 1)
        #expect(out[.download] == 1 && out[.nofollow] == 1 && out[.optOut] == 1)
        #expect(selection.pages.count + out.total == links.count + marked.count)

        let wider = policy {
            $0.extraHosts = ["other.test"]
            $0.allowQueryStrings = true
        }.select(links, page: base).pages.map(\.absoluteString)
        #expect(wider.contains("http://other.test/o.html"))
        #expect(wider.contains("http://example.test/x.html?q=1"))
    }

    @Test func declaredLinksComeFirstThenTheViewportThenDocumentOrder() {
        let links: [LinkPolicy.Link] = [
            .init(href: "/d1.html"), .init(href: "/v1.html", source: .viewport),
            .init(href: "/x1.html", source: .declared),
            .init(href: "/d2.html"), .init(href: "/v2.html", source: .viewport),
            .init(href: "/x2.html", source: .declared),
        ]
        let selection = policy { $0.eagerness = .eager }.select(links, page: base)
        #expect(selection.pages.map(\.path) == ["/x1.html", "/x2.html", "/v1.html", "/v2.html", "/d1.html", "/d2.html"])
        let capped = policy {
            $0.eagerness = .eager
            $0.maxPagesPerPage = 3
        }.select(links, page: base)
        #expect(capped.pages.map(\.path) == ["/x1.html", "/x2.html", "/v1.html"])
        #expect(capped.leftOut[.cap] == 3)
    }

    @Test func aURLCountsOnceUnderItsBestSource() {
        let links: [LinkPolicy.Link] = [
            .init(href: "/p.html"), .init(href: "/q.html"), .init(href: "/p.html#top", source: .declared),
        ]
        let selection = policy {
            $0.eagerness = .eager
            $0.maxPagesPerPage = 1
        }.select(links, page: base)
        #expect(selection.pages.map(\.path) == ["/p.html"])
        #expect(selection.leftOut[.duplicate] == 1 && selection.leftOut[.cap] == 1)
    }

    @Test func declaredLinksStillPassTheSafetyRules() {
        let links = ["/logout", "http://other.test/a.html", "/s.html?q=1", "tel:123", "/ok.html"]
            .map { LinkPolicy.Link(href: $0, source: .declared) }
        let selection = policy().select(links, page: base)
        #expect(selection.pages.map(\.path) == ["/ok.html"])
        let out = selection.leftOut
        #expect(out[.sideEffect] == 1 && out[.host] == 1 && out[.query] == 1 && out[.scheme] == 1)
    }

    @Test func thePageItselfIsADuplicate() {
        let links = [base.absoluteString, base.absoluteString + "#top", "/dir/other.html"].map {
            LinkPolicy.Link(href: $0)
        }
        let selection = policy().select(links, page: URL(string: base.absoluteString + "#start")!)
        #expect(selection.pages.map(\.path) == ["/dir/other.html"])
        #expect(selection.leftOut[.duplicate] == 2)
    }

    @Test func knownPagesAreLeftOutAndDoNotUseTheCap() {
        let links = ["/k1.html", "/a.html", "/k2.html", "/b.html"].map { LinkPolicy.Link(href: $0) }
        let selection = policy { $0.maxPagesPerPage = 1 }.select(links, page: base) { $0.path.hasPrefix("/k") }
        #expect(selection.pages.map(\.path) == ["/a.html"])
        #expect(selection.known.map(\.path) == ["/k1.html", "/k2.html"])
        #expect(selection.leftOut[.alreadyPrefetched] == 2 && selection.leftOut[.cap] == 1)
    }

    @Test func theDefaultsAreFiftyPagesModerateAndABudgetSizedToThePage() {
        let configuration = BoosterConfiguration()
        #expect(configuration.maxPagesPerPage == 50)
        #expect(configuration.eagerness == .moderate)
        #expect(configuration.byteBudget == nil)
        #expect(BoosterConfiguration.defaultByteCeiling == 32 << 20)
    }

    @Test func unhintedLinksGoByLikelihood() {
        let links: [LinkPolicy.Link] = [
            .init(href: "/other/o.html", source: .viewport), .init(href: "/dir/d1.html"),
            .init(href: "/dir/n.html", next: true), .init(href: "/dir/s.html", suggested: true),
            .init(href: "/dir/v.html", source: .viewport), .init(href: "/dir/h.html", source: .declared),
        ]
        #expect(policy { $0.eagerness = .eager }.select(links, page: base).pages.map(\.path)
            == ["/dir/h.html", "/dir/n.html", "/dir/s.html", "/dir/v.html", "/other/o.html", "/dir/d1.html"])
        // Moderate, the default, goes where a page that hints says a reader goes next, as
        // conservative does; on a page without hints, by likelihood.
        for eagerness in [PrefetchEagerness.conservative, .moderate] {
            let hintsOnly = policy { $0.eagerness = eagerness }.select(links, page: base)
            #expect(hintsOnly.pages.map(\.path) == ["/dir/h.html"])
            #expect(hintsOnly.hinted == 1 && hintsOnly.leftOut[.eagerness] == 5)
        }
        let unhinted = links.filter { $0.source != .declared }
        #expect(policy().select(unhinted, page: base).pages.map(\.path)
            == ["/dir/n.html", "/dir/s.html", "/dir/v.html", "/other/o.html", "/dir/d1.html"])
    }

    @Test func theScriptsLinksDecode() throws {
        let json = #"[{"href":"http://example.test/a.html","source":"viewport","#
            + #""download":false,"nofollow":true,"optOut":false}]"#
        let links = try JSONDecoder().decode([LinkPolicy.Link].self, from: Data(json.utf8))
        #expect(links == [LinkPolicy.Link(href: "http://example.test/a.html", source: .viewport, nofollow: true)])
    }

    @Test func leftOutLinksEncodeEveryReason() throws {
        var stats = PrefetchRunStats()
        stats.linksLeftOut[.host] = 2
        stats.linksLeftOut[.budget] += 1
        let data = try JSONEncoder().encode(stats)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let leftOut = try #require(object["linksLeftOut"] as? [String: Int])
        #expect(Set(leftOut.keys) == Set(LinksLeftOut.Reason.allCases.map(\.rawValue)))
        #expect(leftOut["host"] == 2 && leftOut["budget"] == 1 && leftOut["cap"] == 0)
        #expect(stats.linksLeftOut.total == 3)
        #expect(try JSONDecoder().decode(PrefetchRunStats.self, from: data) == stats)
    }
}
