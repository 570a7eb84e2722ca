public import Foundation

/// The frames a load showed, from its navigation's start until the view was visually stable
/// (`LoadResult.filmstrip`); `LoadResult.visualMetrics` has what they show.
public struct Filmstrip: Sendable, Equatable {
    /// One frame of the viewport, in device pixels, as PNG.
    public struct Frame: Sendable, Equatable {
        /// When WebKit delivered it, in ms on the load's clock; the first frame, the view as the
        /// navigation started, is at 0.
        public var time: Int
        /// The PNG file's bytes.
        public var pngData: Data
        /// The file name browsertime and WebPageTest give it: `ms_000120.png`.
        public var fileName: String { "ms_" + String(format: "%06d", time) + ".png" }
    }

    /// Why the recording ended.
    public enum Ending: String, Sendable, Codable {
        /// The view stayed unchanged for `FilmstripOptions.stableFor` after the load event.
        case stable
        /// `FilmstripOptions.afterLoadAtMost` passed after the load event while the view still changed.
        case bound
        /// `FilmstripOptions.maxFrames` or `maxBytes` was reached.
        case frameLimit
    }

    /// The frames, each different from the one before it, in time order.
    public var frames: [Frame]
    /// The frames' size in device pixels.
    public var width: Int
    /// The frames' height in device pixels.
    public var height: Int

    /// Writes each frame to `directory` as `Frame.fileName`, creating the directory (and its
    /// parents) when missing; the `ms_*.png` files of an earlier filmstrip there are removed
    /// first, since `visualmetrics` reads every one. Throws `.fileUnwritable` naming the file or
    /// directory that failed.
    public func write(to directory: String) throws {
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw HeadwayError(.fileUnwritable, "could not create the filmstrip's directory \(directory): "
                               + ((error as NSError).localizedFailureReason ?? error.localizedDescription))
        }
        let earlier = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in earlier where name.hasPrefix("ms_") && name.hasSuffix(".png") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        for frame in frames {
            let file = folder.appendingPathComponent(frame.fileName)
            do { try frame.pngData.write(to: file, options: .atomic) } catch {
                throw HeadwayError(.fileUnwritable, "could not write the frame \(file.path): "
                                   + ((error as NSError).localizedFailureReason ?? error.localizedDescription))
            }
        }
    }
}
