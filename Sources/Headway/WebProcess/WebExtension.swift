import CWebKit
import Foundation

// Installs the web-process extension (`libHeadwayWebExtension.so`): the isolated world's bridge
// to the page's world, and the request rewrites (absolute http(s) subresources into the mirror
// schemes, extra headers, blocked URLs). WebKit loads every library in the directory it is
// given, so the library is linked into a private directory of its own.
@EngineActor
enum WebExtension {
    nonisolated static let libraryName = "libHeadwayWebExtension.so"

    // The places searched for the library, in order: `HEADWAY_WEB_EXTENSION` if set; the
    // library's resource bundle (`*_Headway.resources/`, where SwiftPM's build puts it) and the
    // folder itself, next to the executable; then the same up to four folders above argv[0].
    nonisolated static func candidates() -> [URL] {
        var folders: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            var directory = URL(fileURLWithPath: first).deletingLastPathComponent()
            for _ in 0..<4 {
                folders.append(directory)
                directory.deleteLastPathComponent()
            }
        }
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["HEADWAY_WEB_EXTENSION"], !path.isEmpty {
            candidates.append(URL(fileURLWithPath: path))
        }
        for folder in folders {
            for bundle in ["Headway_Headway.resources", "headway_Headway.resources"] {
                candidates.append(folder.appendingPathComponent(bundle).appendingPathComponent(libraryName))
            }
            candidates.append(folder.appendingPathComponent(libraryName))
        }
        var seen = Set<String>()
        return candidates.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    // Where the library is, or nil (with one warning per process on stderr when `warns`).
    static func locate(warns: Bool = true) -> URL? {
        let candidates = candidates()
        if let found = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0.path) }) { return found }
        if warns, !warned {
            warned = true
            let warning = "headway: warning: the booster's web-process extension (\(libraryName)) was not found "
                + "(looked in \(candidates.map(\.path).joined(separator: ", "))); absolute http(s) subresource URLs "
                + "will bypass the booster. Ship the Headway_Headway.resources folder beside the executable or set "
                + "HEADWAY_WEB_EXTENSION.\n"
            FileHandle.standardError.write(Data(warning.utf8))
        }
        return nil
    }

    private static var warned = false

    // Whether `configuration` asks for what only the extension does: extra headers, blocked URLs
    // and a request filter act nowhere else, so a browser without it would silently ignore them;
    // a memory limit needs the web process ids it reports (`MemoryWatch`).
    nonisolated static func isRequired(for configuration: Browser.Configuration) -> Bool {
        !configuration.extraHeaders.isEmpty || !configuration.blockedURLPatterns.isEmpty
            || configuration.requestFilter != nil
            || (configuration.webProcessMemoryLimit ?? 0) > 0
    }

    // Points `context` at a directory holding the extension, configured for `configuration`.
    // Every browser has it: it gives the isolated world its bridge to the page's world
    // (`ScriptWorld.isolated`), and does the booster's mirror rewrite, extra headers and blocked
    // URLs when asked for. Without the library, and nothing required it, absolute subresource
    // URLs bypass the booster (`locate()` warned of it) and the isolated world has no
    // `headwayPage`. Throws `.engine` when extra headers, blocked URLs, a request filter or a
    // memory limit need it and it cannot be installed. Returns whether it was installed.
    static func install(on context: UnsafeMutablePointer<WebKitWebContext>, configuration: Browser.Configuration,
                        filterAddress: String?) throws(HeadwayError) -> Bool {
        let required = isRequired(for: configuration)
        // Only the booster's loss is worth a warning at start; a missing bridge says so when used.
        guard let library = locate(warns: !required && configuration.booster != nil) else {
            guard !required else {
                throw HeadwayError(.engine, "extra headers, blocked URLs, request filters and memory limits need the "
                                   + "web-process extension \(libraryName), "
                                   + "which was not found (looked in "
                                   + "\(candidates().map(\.path).joined(separator: ", "))): ship the "
                                   + "Headway_Headway.resources folder beside the executable or set "
                                   + "HEADWAY_WEB_EXTENSION")
            }
            return false
        }
        let directory: URL
        do {
            directory = try folder(holding: library)
        } catch {
            guard !required else {
                throw HeadwayError(.engine, "could not install the web-process extension: "
                                   + (error as NSError).localizedDescription)
            }
            return false
        }
        webkit_web_context_set_web_extensions_directory(context, directory.path)
        // The floating variant is sunk by WebKit.
        webkit_web_context_set_web_extensions_initialization_user_data(
            context,
            settings(for: configuration, filterAddress: filterAddress)
        )
        return true
    }

    // The extension's settings as the a{sv} dictionary it reads.
    private static func settings(for configuration: Browser.Configuration, filterAddress: String?) -> OpaquePointer {
        let booster = configuration.booster
        let dictionary = g_variant_builder_new(g_variant_type_checked_("a{sv}"))
        func add(_ key: String, _ value: OpaquePointer?) {
            g_variant_builder_add_value(
                dictionary,
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
            )
        }
        let emulates = configuration.networkConditions != nil
        add("mirror", g_variant_new_boolean(booster != nil || emulates ? 1 : 0))
        add("allHosts", g_variant_new_boolean(booster?.allHosts == true || emulates ? 1 : 0))
        add("extraHosts", strings((booster?.extraHosts ?? []).sorted()))
        add("block", strings(configuration.blockedURLPatterns))
        if let filterAddress { add("filter", g_variant_new_string(filterAddress)) }
        add("isolatedWorld", g_variant_new_string(PageScripts.isolatedWorld))
        add("pageRunner", g_variant_new_string(PageScripts.pageRunner))
        add("isolatedBridge", g_variant_new_string(PageScripts.isolatedBridge))
        let pairs = g_variant_builder_new(g_variant_type_checked_("a(ss)"))
        for (name, value) in configuration.extraHeaders {
            var both = [g_variant_new_string(name), g_variant_new_string(value)]
            g_variant_builder_add_value(
                pairs,
                both.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
            )
        }
        add("headers", g_variant_builder_end(pairs))
        g_variant_builder_unref(pairs)
        let result = g_variant_builder_end(dictionary)!
        g_variant_builder_unref(dictionary)
        return result
    }

    private static func strings(_ values: [String]) -> OpaquePointer? {
        let builder = g_variant_builder_new(g_variant_type_checked_("as"))
        for value in values { g_variant_builder_add_value(builder, g_variant_new_string(value)) }
        defer { g_variant_builder_unref(builder) }
        return g_variant_builder_end(builder)
    }
}

// The directory WebKit loads the extension from: WebKit loads every library in it.
extension WebExtension {
    // The library's own folder when it holds nothing else (the resource bundle beside the
    // executable: nothing to make or remove); else a private folder of this process with a link to
    // the library, made when first needed (again, if a cleaner of /tmp removed it) and removed when
    // the process exits.
    static func folder(holding library: URL) throws -> URL {
        let own = library.deletingLastPathComponent()
        if (try? FileManager.default.contentsOfDirectory(atPath: own.path)) == [library.lastPathComponent],
           library.lastPathComponent == libraryName {
            return own
        }
        if let made = privateFolder,
           FileManager.default.fileExists(atPath: made.appendingPathComponent(libraryName).path) {
            return made
        }
        // A folder of its own, made afresh (mkdtemp): no folder another user made first is used.
        var template = Array(FileManager.default.temporaryDirectory
            .appendingPathComponent("headway-web-extension-\(getpid())-XXXXXX").path.utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) != nil }) else {
            throw HeadwayError(.engine, "could not make a folder for the web-process extension: "
                               + String(cString: strerror(errno)))
        }
        let made = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                               as: UTF8.self))
        do {
            try FileManager.default.createSymbolicLink(at: made.appendingPathComponent(libraryName),
                                                       withDestinationURL: library.resolvingSymlinksInPath())
        } catch {
            try? FileManager.default.removeItem(at: made)
            throw error
        }
        if privateFolder == nil { atexit(removePrivateFolder) }
        privateFolder = made
        return made
    }

    nonisolated(unsafe) fileprivate static var privateFolder: URL?
}

// Run at exit, on whichever thread calls exit(): not on the engine actor.
private func removePrivateFolder() {
    if let made = WebExtension.privateFolder { try? FileManager.default.removeItem(at: made) }
}
