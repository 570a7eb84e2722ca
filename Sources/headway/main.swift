import HeadwayCLI

await headwayMain()
