// swift-tools-version:6.0
import PackageDescription

// The shared object exports only the drupal_* C API (version script) and carries a soname.
let exportsMap = "\(Context.packageDirectory)/Sources/DrupalCABI/exports.map"

// Async functions run on their caller's executor instead of hopping to the generic one at every
// call (Swift 6.2's nonisolated(nonsending) default): a request passes through several.
let fastAsync: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "drupalsdk",
    products: [
        // libdrupalsdk.so: the C ABI users link against.
        .library(name: "drupalsdk", type: .dynamic, targets: ["DrupalCABI"]),
        // The Swift core, for Swift users.
        .library(name: "DrupalSDK", targets: ["DrupalSDK"]),
    ],
    targets: [
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CJansson", pkgConfig: "jansson",
                       providers: [.apt(["libjansson-dev"])]),
        // The content codings the client decodes itself (gzip, deflate, br): libcurl's own
        // dependencies on Debian, so the .so needs nothing libcurl4 does not bring.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotliDec", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        // Typed wrappers around libcurl's variadic setopt/getinfo calls, and the content decoders.
        .target(name: "CCurlShim", dependencies: ["CCurl", "CZlib", "CBrotliDec"]),
        // The parts of the C API written in C: per-thread errors and the Jansson JSON helpers.
        .target(name: "CDrupal", dependencies: ["CJansson"],
                cSettings: [.headerSearchPath("../../include")]),
        // Completion queues: C, over the Swift exports for responses (kept out of CDrupal, whose
        // JSON helpers are also built and fuzzed without the Swift part).
        .target(name: "CDrupalQueue", dependencies: ["CDrupal"],
                cSettings: [.headerSearchPath("../../include"), .headerSearchPath("../CDrupal/include")]),
        // The version macros of include/drupalsdk.h, for the Swift core (written in one place).
        .target(name: "CSDKVersion", dependencies: ["CJansson"]),
        // The protocol engine.
        .target(name: "DrupalSDK", dependencies: ["CCurlShim", "CSDKVersion"], swiftSettings: fastAsync),
        // @_cdecl exports over opaque handles.
        .target(name: "DrupalCABI", dependencies: ["DrupalSDK", "CDrupal", "CDrupalQueue"], exclude: ["exports.map"],
                swiftSettings: fastAsync,
                linkerSettings: [.unsafeFlags([
                    "-Xlinker", "--version-script=\(exportsMap)",
                    "-Xlinker", "-soname=libdrupalsdk.so.0",
                ])]),
        .testTarget(name: "DrupalSDKTests", dependencies: ["DrupalSDK"]),
    ]
)
