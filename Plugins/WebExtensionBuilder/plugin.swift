import Foundation
import PackagePlugin

/// Builds the web-process extension (`libHeadwayWebExtension.so`, from
/// Sources/HeadwayWebExtension) for every package that builds the Headway library, and hands it
/// to SwiftPM as a resource of the library: it lands in the library's resource bundle next to
/// the client's executable, where the booster finds it. WebKit loads it into each web process.
@main
struct WebExtensionBuilder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let sources = context.package.directoryURL.appending(path: "Sources/HeadwayWebExtension")
        let files = ["extension.c", "bridge.c"].map { sources.appending(path: $0) }
        let header = sources.appending(path: "include/headway_web_extension.h")
        let output = context.pluginWorkDirectoryURL.appending(path: "libHeadwayWebExtension.so")
        let flags = try pkgConfig(["--cflags", "--libs", "webkit2gtk-web-extension-4.1"])
        return [.buildCommand(
            displayName: "Building the web-process extension libHeadwayWebExtension.so",
            executable: try compiler(context),
            arguments: ["-shared", "-fPIC", "-O2", "-Wall", "-o", output.path(percentEncoded: false),
                        "-I", sources.appending(path: "include").path(percentEncoded: false)]
                + files.map { $0.path(percentEncoded: false) } + flags,
            inputFiles: files + [header],
            outputFiles: [output])]
    }

    /// The C compiler: the toolchain's clang, else the system's cc.
    private func compiler(_ context: PluginContext) throws -> URL {
        if let clang = try? context.tool(named: "clang") { return clang.url }
        return URL(fileURLWithPath: "/usr/bin/cc")
    }

    private func pkgConfig(_ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginError("pkg-config \(arguments.joined(separator: " ")) failed: install libwebkit2gtk-4.1-dev (scripts/setup does)")
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
