import Glibc
import KaraokeCore

// The thin edge: parse the command line in the core, then run the command that reads and writes.
DisplayWidth.prepareLocale()
signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
// The config file is read for a command, not for --help, --version or --generate (DESIGN §14.4); its
// warnings come first, and never stop the command.
let config = arguments.first.map { !$0.hasPrefix("-") && $0 != "help" } == true ? SettingsFiles.config() : nil
if let config { StandardStreams.report(config.warnings) }
let invocation: Invocation
do {
    invocation = try CommandLineParser.parse(arguments, config: config)
} catch {
    StandardStreams.err("karaoke: \(error.message)")
    StandardStreams.exit(2)
}

switch invocation {
case .help(let text):
    StandardStreams.out(text)
    StandardStreams.exit(0)
case .config(let text), .generated(let text):
    StandardStreams.out(text)
    StandardStreams.exit(0)
case .version:
    StandardStreams.out("karaoke \(CommandLineParser.version)\n")
    StandardStreams.exit(0)
case .render(let request):
    StandardStreams.exit(RenderCommand.run(request))
case .check(let request):
    StandardStreams.exit(CheckCommand.run(request))
case .play(let request):
    StandardStreams.exit(PlayCommand.run(request))
case .convert(let request):
    StandardStreams.exit(ConvertCommand.run(request))
case .follow(let request):
    StandardStreams.exit(FollowCommand.run(request))
case .sync(let request):
    StandardStreams.exit(SyncCommand.run(request))
case .calibrate(let request):
    StandardStreams.exit(CalibrateCommand.run(request))
case .mic(let request):
    StandardStreams.exit(MicCommand.run(request))
case .party(let request):
    StandardStreams.exit(PartyCommand.run(request))
case .fetch(let request):
    StandardStreams.exit(FetchCommand.run(request, readTags: LyricsFinder.standard.readTags))
}
