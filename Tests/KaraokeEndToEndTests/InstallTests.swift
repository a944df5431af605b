import Foundation
import Testing

/// `make install` and `make uninstall` into a temporary DESTDIR (DESIGN §14.5), with the binaries the tests
/// built (`make install-files BUILT=…` is the install without the release build).
@Suite("Installing: make install puts every file in place, make uninstall takes them away")
struct InstallTests {
    /// The files `make install PREFIX=/usr/local` puts under DESTDIR.
    static let installed = [
        "usr/local/bin/karaoke", "usr/local/bin/karaoke-tags", "usr/local/share/man/man1/karaoke.1",
        "usr/local/share/bash-completion/completions/karaoke", "usr/local/share/zsh/site-functions/_karaoke",
        "usr/local/share/fish/vendor_completions.d/karaoke.fish",
    ]

    /// The program at `path`, when it exists and can be run.
    static func tool(_ name: String) -> String? {
        for folder in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
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

    @Test("every file lands under DESTDIR, the installed karaoke runs, man renders its page, and uninstall removes them")
    func installAndUninstall() throws {
        guard let make = InstallTests.tool("make") else {
            print("skipped: make is not installed")
            return
        }
        let destination = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: destination) }
        let built = KaraokeProcess.binary.deletingLastPathComponent().path
        let variables = ["-C", KaraokeProcess.repository.path, "--no-print-directory", "PREFIX=/usr/local", "DESTDIR=\(destination.path)"]
        let install = try InstallTests.run(make, variables + ["install-files", "BUILT=\(built)"])
        #expect(install.status == 0, "\(install.output)")
        for file in InstallTests.installed {
            let path = destination.appendingPathComponent(file).path
            #expect(FileManager.default.fileExists(atPath: path), "\(file) is missing")
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(file) is empty")
        }
        for binary in ["karaoke", "karaoke-tags"] {
            #expect(FileManager.default.isExecutableFile(atPath: destination.appendingPathComponent("usr/local/bin/\(binary)").path))
        }
        let version = try InstallTests.run(destination.appendingPathComponent("usr/local/bin/karaoke").path, ["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("karaoke "))

        let page = destination.appendingPathComponent("usr/local/share/man/man1/karaoke.1").path
        if let man = InstallTests.tool("man") {
            let rendered = try InstallTests.run(man, ["-l", page], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
            #expect(rendered.status == 0, "\(rendered.output)")
            for heading in ["NAME", "SYNOPSIS", "COMMANDS", "OPTIONS", "KEYS", "CONFIGURATION", "FILES", "EXIT STATUS"] {
                #expect(rendered.output.contains(heading), "no \(heading) in the rendered page")
            }
            #expect(rendered.output.contains("--gradient-duration"))
        } else {
            print("skipped: man is not installed (make deps-test installs man-db)")
        }
        // Each completion script parses in its shell, where the shell is installed.
        let scripts = [
            ("bash", "usr/local/share/bash-completion/completions/karaoke"), ("zsh", "usr/local/share/zsh/site-functions/_karaoke"),
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
            #expect(!FileManager.default.fileExists(atPath: destination.appendingPathComponent(file).path), "\(file) is left")
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
            """
        let result = try InstallTests.run(bash, ["-c", probe])
        #expect(result.output.split(separator: "\n") == ["render", "--reduce-motion", "text ansi json"], "\(result.output)")
    }
}
