/// Headway's version, as `headway --version` prints it and the package is tagged: `Headway.version`.
public let version = "0.2.0"
