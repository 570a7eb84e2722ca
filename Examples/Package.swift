// swift-tools-version: 6.2
// The README's Swift examples as a package of their own that uses Headway as any client would.
// `swift run LoadAPage` here builds against this checkout; scripts/check-examples builds them
// against a tagged clone, by version, and runs each one.
import Foundation
import PackageDescription

let headway: Package.Dependency = ProcessInfo.processInfo.environment["HEADWAY_PACKAGE_URL"].map {
    .package(url: $0, from: "0.2.0")
} ?? .package(name: "headway", path: "..")

let library: Target.Dependency = .product(name: "Headway", package: "headway")

let package = Package(
    name: "HeadwayExamples",
    dependencies: [headway],
    targets: [
        .executableTarget(name: "LoadAPage", dependencies: [library]),
        .executableTarget(name: "RunSnippets", dependencies: [library]),
        .executableTarget(name: "UseTheBooster", dependencies: [library]),
        .executableTarget(name: "WatchNavigations", dependencies: [library]),
        .executableTarget(name: "ManyBrowsers", dependencies: [library]),
        .testTarget(name: "TimingTests", dependencies: [library]),
    ]
)
