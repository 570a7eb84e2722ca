// swift-tools-version: 6.2
import Foundation
import PackageDescription

// WebKitGTK's flags through Sources/CWebKit/headway-webkit.pc: webkit2gtk-4.1.pc brings glib's
// -pthread and gmodule's -Wl,--export-dynamic, which SwiftPM refuses (and drops) with a warning to
// every client. That file assumes the headers under /usr/include and a path without spaces
// (SwiftPM splits pkgConfig on spaces); anywhere else, webkit2gtk-4.1.pc as it is.
let webKitPC = Context.packageDirectory + "/Sources/CWebKit/headway-webkit.pc"
let webKitPkgConfig = !webKitPC.contains(" ")
    && FileManager.default.fileExists(atPath: "/usr/include/webkitgtk-4.1/webkit2/webkit2.h")
    ? webKitPC : "webkit2gtk-4.1"

let package = Package(
    name: "Headway",
    products: [
        .library(name: "Headway", targets: ["Headway"]),
        .executable(name: "headway", targets: ["headway"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target Headway` builds the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The zip files Selenium's remote clients upload for a file input (POST /session/{id}/se/file).
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // The WebDriver server's HTTP (and later WebDriver BiDi's WebSocket): no product but the CLI's needs it.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CWebKit",
            pkgConfig: webKitPkgConfig,
            providers: [.apt(["libwebkit2gtk-4.1-dev", "libsoup-3.0-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(
            name: "CHeadwayShims",
            dependencies: ["CWebKit", "CLibXML2"]
        ),
        // Compiles Sources/HeadwayWebExtension into the library's resources for every client.
        .plugin(name: "WebExtensionBuilder", capability: .buildTool()),
        .target(
            name: "Headway",
            dependencies: ["CWebKit", "CHeadwayShims"],
            swiftSettings: [.enableUpcomingFeature("InternalImportsByDefault")],
            plugins: ["WebExtensionBuilder"]
        ),
        // `headway webdriver`: a W3C WebDriver server, a client of the library's public API like any other.
        .target(
            name: "HeadwayWebDriver",
            dependencies: [
                "Headway",
                "ZIPFoundation",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // The CLI: everything of `headway` but its entry point, a target of its own so that unit tests can
        // reach it. No product names it, so a client of the library never compiles it or ArgumentParser.
        .target(
            name: "HeadwayCLI",
            dependencies: [
                "Headway", "HeadwayWebDriver", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The schema of `headway load`'s JSON, published beside the code that writes it.
            exclude: ["Output/load-output.schema.json"],
            swiftSettings: [.enableUpcomingFeature("InternalImportsByDefault")]
        ),
        .executableTarget(
            name: "headway",
            dependencies: ["HeadwayCLI"],
            swiftSettings: [.enableUpcomingFeature("InternalImportsByDefault")]
        ),
        .target(
            name: "HeadwayTestSupport",
            dependencies: ["Headway"],
            path: "Tests/HeadwayTestSupport",
            // Read from the source tree by JSONSchema.har.
            exclude: ["har-1.2.schema.json"]
        ),
        // A client program for CLITests/ClientProcessTests: Headway starts one Xvfb per process.
        .executableTarget(name: "ClientProbe", dependencies: ["Headway", "HeadwayTestSupport"],
                          path: "Tests/ClientProbe"),
        .testTarget(name: "HeadwayTests", dependencies: ["Headway", "HeadwayTestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["Headway", "HeadwayTestSupport"]),
        // The WebDriver commands, called without a socket, against real WebKit.
        .testTarget(name: "WebDriverTests",
                    dependencies: ["HeadwayWebDriver", "Headway", "HeadwayTestSupport", "ZIPFoundation"]),
        // The CLI's parsing and writing, called directly: no WebKit, no process.
        .testTarget(name: "CLIUnitTests", dependencies: ["HeadwayCLI", "Headway"]),
    ]
)
