// swift-tools-version:6.0
import PackageDescription

// Swift imports _StringProcessing (regex) and _Concurrency (async/await) into every file unless told not to;
// the code uses neither, but the imports alone make the binary load libswift_StringProcessing,
// libswift_RegexParser and libswift_Concurrency (with libdispatch) at start-up. Only the shipped binary and the
// core it links need this; the bench, the fuzzer and the tests pull in Foundation or Testing, which load them anyway.
let noImplicitImports: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-implicit-string-processing-module-import",
        "-Xfrontend", "-disable-implicit-concurrency-module-import",
    ])
]

// `make check-asan` runs the core tests alone under AddressSanitizer: with KARAOKE_TESTS=core the package has only
// that test target, so its test product, and that build, holds KaraokeCore and its tests, not the driver, the
// programs and the end-to-end tests, which would be compiled with ASan only to go unused.
let coreTestsOnly = Context.environment["KARAOKE_TESTS"] == "core"

let package = Package(
    name: "karaoke",
    products: [
        .executable(name: "karaoke", targets: ["karaoke"]),
        .executable(name: "karaoke-tags", targets: ["karaoke-tags"]),
        .library(name: "KaraokeCore", targets: ["KaraokeCore"]),
    ],
    targets: [
        // glibc's wcwidth and the locale switch, which Swift's Glibc module hides.
        .systemLibrary(name: "CTextWidth", path: "Sources/CTextWidth"),
        // ncursesw with the wide-character API; used by the `play` painter.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        // The one loader of the optional libraries below: dlopen on first use, once per library, and the
        // message naming the Debian package when one is missing (DESIGN §16). Each library's shim is a C
        // target of its own that declares the library's symbols for this loader.
        .target(name: "COptionalLibrary"),
        // libxml2's SAX2 parser for TTML, loaded on first use: nothing else pays for it (or for ICU).
        .target(name: "CLibXML2", dependencies: ["COptionalLibrary"]),
        // libcurl's easy interface for `karaoke fetch`, loaded on first use: start-up never pays for it.
        .target(name: "CCurl", dependencies: ["COptionalLibrary"]),
        // libdbus-1's client API for `karaoke follow`'s MPRIS players, loaded on first use.
        .target(name: "CDBus", dependencies: ["COptionalLibrary"]),
        // PulseAudio's simple API and aubio's pitch detector for the microphone (scoring, `calibrate`, `mic`),
        // each loaded on first use.
        .target(name: "CPulseSimple", dependencies: ["COptionalLibrary"]),
        .target(name: "CAubio", dependencies: ["COptionalLibrary"]),
        // FluidSynth for the music of MIDI karaoke (DESIGN §18), loaded on first use.
        .target(name: "CFluidSynth", dependencies: ["COptionalLibrary"]),
        // libsonivox (EAS) for that music when no SoundFont is installed (DESIGN §18.5), loaded on first use.
        .target(name: "CSonivox", dependencies: ["COptionalLibrary"]),
        // libarchive's reader for zipped MP3+G songs, loaded on first use.
        .target(name: "CLibArchive", dependencies: ["COptionalLibrary"]),
        // libmicrohttpd's daemon for the party's server (DESIGN §21), loaded on first use.
        .target(name: "CMicroHTTPD", dependencies: ["COptionalLibrary"]),
        // libchafa's canvas, which chooses the block symbols and colours of a CD+G picture in cells (DESIGN
        // §19.7), loaded on first use.
        .target(name: "CChafa", dependencies: ["COptionalLibrary"]),
        // libqrencode for the QR code of the party's address on its card (DESIGN §22.1), loaded on first use.
        .target(name: "CQREncode", dependencies: ["COptionalLibrary"]),
        // libkakasi for the romaji of Japanese lines under `--romanize` (DESIGN §29.4), loaded on first use.
        .target(name: "CKakasi", dependencies: ["COptionalLibrary"]),
        // GNU FriBidi for the embedding levels of right-to-left lines (DESIGN §3.5), loaded on first use.
        .target(name: "CFriBidi", dependencies: ["COptionalLibrary"]),
        // fork + exec of mpv under a guard process that outlives karaoke only to clean up after it.
        .systemLibrary(name: "CProcess", path: "Sources/CProcess"),
        // The pure core: lyrics, width and wrapping, timing and fill, frames, argument parsing. No I/O.
        .target(
            name: "KaraokeCore",
            dependencies: ["CTextWidth", "CLibXML2"],
            swiftSettings: noImplicitImports,
            linkerSettings: [.linkedLibrary("m")]
        ),
        // One driver for every screen (DESIGN §17.3): the screen and waiter seams, the one wait, the mailboxes
        // and threads that feed it, among them follow's player connection and MPD's session (DESIGN §12), the
        // synthesis of a MIDI song's music (DESIGN §18), a CD+G picture's cells (§19.7) and the party's HTTP
        // server (DESIGN §21) and the monitor that plays the microphone to the speakers (DESIGN §24). Apart from the executable so that tests drive the programs, and the connection,
        // through it.
        .target(
            name: "KaraokeDriver",
            dependencies: [
                "KaraokeCore", "CProcess", "CFluidSynth", "CSonivox", "CChafa", "CMicroHTTPD", "CQREncode",
                "CPulseSimple", "CKakasi", "CFriBidi",
            ],
            swiftSettings: noImplicitImports
        ),
        // The thin edge: command line, files, terminal, mpv.
        .executableTarget(
            name: "karaoke",
            dependencies: [
                "KaraokeCore", "KaraokeDriver", "CNcursesw", "CProcess", "CCurl", "CDBus", "CPulseSimple", "CAubio",
                "CFluidSynth",
                "CLibArchive",
            ],
            swiftSettings: noImplicitImports
        ),
        // Reads one audio file's tags with TagLib's C++ API and prints them as JSON (DESIGN §10.2). A process
        // of its own: karaoke never links TagLib, and a tag that crashes TagLib cannot take the player down.
        .executableTarget(
            name: "karaoke-tags",
            cxxSettings: [.unsafeFlags(["-I/usr/include/taglib"])],
            linkerSettings: [.linkedLibrary("tag")]
        ),
        .executableTarget(
            name: "karaoke-bench",
            // terminfo, for the byte floor; ppoll, for the wake-up floor; the driver's MIDI synthesis and
            // its CD+G pictures in cells; libxml2, for the floor under reading TTML
            dependencies: ["KaraokeCore", "KaraokeDriver", "CNcursesw", "CProcess", "CLibXML2"]
        ),
        // The parser, composer and encodings under libFuzzer (`make fuzz`); a file replayer otherwise.
        .executableTarget(
            name: "karaoke-fuzz",
            dependencies: ["KaraokeCore"]
        ),
        .testTarget(
            name: "KaraokeCoreTests",
            dependencies: ["KaraokeCore"],
            exclude: ["Golden"]
        ),
    ]
        + (coreTestsOnly ? [] : otherTestTargets),
    swiftLanguageModes: [.v6]
)

/// The test targets beside the core's: they drive the driver and the programs.
var otherTestTargets: [Target] {
    [
        // Drives the programs through the driver in-process: a recording screen, a scripted clock and waiter.
        .testTarget(
            name: "KaraokeDriverTests",
            dependencies: ["KaraokeDriver", "KaraokeCore"]
        ),
        // Drives the real binary: as a process with pipes, and in tmux as a terminal.
        .testTarget(
            name: "KaraokeEndToEndTests",
            dependencies: ["karaoke", "karaoke-tags", "KaraokeCore", "KaraokeDriver"],
            // The tagged-audio maker, the LRCLIB test server and the pixel terminal are Python, run by the
            // tests with python3.
            exclude: ["Fixtures", "Support/lrclib_server.py", "Support/pixel_terminal.py"]
        ),
    ]
}
