import Foundation
import Testing

/// `make install` and `make uninstall` into a temporary DESTDIR (DESIGN §14.5), with the binaries the tests
/// built (`make install-files BUILT=…` is the install without the release build).
@Suite("Installing: make install puts every file in place, make uninstall takes them away", .concurrencyLimit(4))
struct InstallTests {
    /// The files `make install PREFIX=/usr/local` puts under DESTDIR.
    static let installed = [
        "usr/local/bin/karaoke", "usr/local/bin/karaoke-tags", "usr/local/share/man/man1/karaoke.1",
        "usr/local/share/bash-completion/completions/karaoke", "usr/local/share/zsh/site-functions/_karaoke",
        "usr/local/share/fish/vendor_completions.d/karaoke.fish",
    ]

    /// The program at `path`, when it exists and can be run.
    static func tool(_ name: String) -> String? {
        for folder in ["/usr/bin", "/bin", "/usr/local/bin"]
        where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        return nil
    }

    /// Runs `executable arguments` in the repository and returns its status and output (stdout then stderr).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let result = try KaraokeProcess.runRaw(arguments, executable: executable, environment: environment, timeout: 60)
        return (result.status, String(decoding: result.stdout + result.stderr, as: UTF8.self))
    }

    @Test(
        "every file lands under DESTDIR, the installed karaoke runs, man renders its page, and uninstall removes them")
    func installAndUninstall() throws {
        guard let make = InstallTests.tool("make") else {
            print("skipped: make is not installed")
            return
        }
        let destination = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: destination) }
        let built = KaraokeProcess.binary.deletingLastPathComponent().path
        let variables = [
            "-C", KaraokeProcess.repository.path, "--no-print-directory", "PREFIX=/usr/local",
            "DESTDIR=\(destination.path)",
        ]
        let install = try InstallTests.run(make, variables + ["install-files", "BUILT=\(built)"])
        #expect(install.status == 0, "\(install.output)")
        for file in InstallTests.installed {
            let path = destination.appendingPathComponent(file).path
            #expect(FileManager.default.fileExists(atPath: path), "\(file) is missing")
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(file) is empty")
        }
        for binary in ["karaoke", "karaoke-tags"] {
            #expect(
                FileManager.default.isExecutableFile(
                    atPath: destination.appendingPathComponent("usr/local/bin/\(binary)").path))
        }
        let version = try InstallTests.run(
            destination.appendingPathComponent("usr/local/bin/karaoke").path, ["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("karaoke "))

        let page = destination.appendingPathComponent("usr/local/share/man/man1/karaoke.1").path
        if let man = InstallTests.tool("man") {
            let rendered = try InstallTests.run(
                man, ["-l", page], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
            #expect(rendered.status == 0, "\(rendered.output)")
            for heading in ["NAME", "SYNOPSIS", "COMMANDS", "OPTIONS", "KEYS", "CONFIGURATION", "FILES", "EXIT STATUS"]
            {
                #expect(rendered.output.contains(heading), "no \(heading) in the rendered page")
            }
            #expect(rendered.output.contains("--gradient-duration"))
        } else {
            print("skipped: man is not installed (make deps-test installs man-db)")
        }
        // Each completion script parses in its shell, where the shell is installed.
        let scripts = [
            ("bash", "usr/local/share/bash-completion/completions/karaoke"),
            ("zsh", "usr/local/share/zsh/site-functions/_karaoke"),
            ("fish", "usr/local/share/fish/vendor_completions.d/karaoke.fish"),
        ]
        for (shell, file) in scripts {
            guard let path = InstallTests.tool(shell) else {
                print("skipped: \(shell) is not installed; its completion script is not parsed")
                continue
            }
            let parsed = try InstallTests.run(path, ["-n", destination.appendingPathComponent(file).path])
            #expect(parsed.status == 0, "\(shell): \(parsed.output)")
        }

        let uninstall = try InstallTests.run(make, variables + ["uninstall"])
        #expect(uninstall.status == 0, "\(uninstall.output)")
        for file in InstallTests.installed {
            #expect(
                !FileManager.default.fileExists(atPath: destination.appendingPathComponent(file).path),
                "\(file) is left")
        }
    }

    @Test("the installed bash completion offers commands, options and values")
    func bashCompletes() throws {
        guard let bash = InstallTests.tool("bash") else {
            print("skipped: bash is not installed")
            return
        }
        let script = try KaraokeProcess.run(["--generate", "bash"]).stdout
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("karaoke.bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let probe = """
            source '\(file.path)'
            complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _karaoke; echo "${COMPREPLY[*]}"; }
            complete_words karaoke ren
            complete_words karaoke play --reduce
            complete_words karaoke render x.lrc --format ''
            complete_words karaoke convert x.lrc --to ''
            complete_words karaoke render x.lrc --from 1 --to ''
            echo end
            """
        let result = try InstallTests.run(bash, ["-c", probe])
        // convert's --to offers its formats; render's (seconds) offers nothing, an empty line.
        #expect(
            result.output.split(separator: "\n") == [
                "render", "--reduce-motion", "text ansi json ppm asciicast svg", "lrc elrc srt vtt", "end",
            ],
            "\(result.output)")
    }

    @Test("the zsh completion offers commands, values and lyric files, in a real zsh in tmux")
    func zshCompletes() throws {
        guard let zsh = InstallTests.tool("zsh"), TmuxSession.isAvailable else {
            print("skipped: zsh or tmux is not installed")
            return
        }
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try KaraokeProcess.run(["--generate", "zsh"]).stdout
            .write(to: folder.appendingPathComponent("_karaoke"), atomically: true, encoding: .utf8)
        // The files offered for play: a song and its audio, not the notes beside them.
        for name in ["song.lrc", "song.opus", "notes.pdf"] {
            try "".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let session = try TmuxSession("'\(zsh)' -f", columns: 120, rows: 20, environment: ["HOME": folder.path])
        // zsh -f's prompt ends in '%' or, for root, '#'.
        try session.waitFor {
            $0.contains { $0.hasSuffix("% ") || $0.hasSuffix("# ") || $0.hasSuffix("%") || $0.hasSuffix("#") }
        }
        try session.send(
            "cd '\(folder.path)'; fpath=(\(folder.path) $fpath); autoload -U compinit; compinit -u -d \(folder.path)/dump",
            "Enter")
        try session.send("karaoke con", "Tab")
        let commands = try session.waitFor { $0.contains { $0.contains("convert") } }
        #expect(
            commands.contains { $0.contains("config") } && commands.contains { $0.contains("convert") }, "\(commands)")
        try session.send("C-u", "karaoke render x --format ", "Tab")
        #expect(
            try session.waitFor { $0.contains { $0.contains("json") } }.contains {
                $0.contains("ansi") && $0.contains("text")
            })
        try session.send("C-u", "karaoke play so", "Tab", "Tab")
        let files = try session.waitFor { $0.contains { $0.contains("song.opus") } }
        #expect(files.contains { $0.contains("song.lrc") && $0.contains("song.opus") }, "\(files)")
        #expect(!files.contains { $0.contains("notes.pdf") }, "\(files)")
        try session.send("C-u", "exit", "Enter")
    }

    @Test("the fish completion offers commands, values and lyric files")
    func fishCompletes() throws {
        guard let fish = InstallTests.tool("fish") else {
            print("skipped: fish is not installed")
            return
        }
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("karaoke.fish")
        try KaraokeProcess.run(["--generate", "fish"]).stdout.write(to: script, atomically: true, encoding: .utf8)
        for name in ["song.lrc", "song.opus", "notes.pdf"] {
            try "".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        func candidates(_ line: String) throws -> [String] {
            let probe = "cd '\(folder.path)'; source '\(script.path)'; complete -C'\(line)'"
            let result = try InstallTests.run(fish, ["--no-config", "-c", probe], environment: ["HOME": folder.path])
            return result.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(try candidates("karaoke con") == ["config", "convert"])
        #expect(try candidates("karaoke render x --align ") == ["center", "left", "right"])
        #expect(try candidates("karaoke play --reduce") == ["--reduce-motion"])
        let files = try candidates("karaoke play so")
        #expect(files.contains("song.lrc") && files.contains("song.opus") && !files.contains("notes.pdf"), "\(files)")
    }
}
