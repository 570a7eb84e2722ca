import HeadwayCLI

// The executable: everything else of `headway` is in HeadwayCLI.
@main
enum Headway {
    static func main() async {
        await headwayMain()
    }
}
